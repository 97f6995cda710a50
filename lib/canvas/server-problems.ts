import { mcpServerChoice, mcpServerNodeType, type Workflow } from "../graph";
import type { CanvasServer, ServerToolsById } from "./canvas-servers";

/** A problem of an MCP server node, as the analysis places it on the node. */
export interface ServerProblem {
  nodeId: string;
  code: "mcp-server-missing" | "mcp-server-disabled" | "mcp-server-refused" | "mcp-server-not-granted" | "mcp-server-reconnect" | "mcp-tool-missing" | "mcp-tools-unlisted";
  severity: "error" | "warning";
  message: string;
  field?: string;
}

/**
 * What stands between each MCP server node and its tools, from the server
 * states app/ hands the canvas (so a grant check slots in as one more
 * availability): a server not in the registry, switched off, refused or not
 * granted to this workflow; a chosen tool the server no longer lists; tools
 * that could not be listed (a warning: the run tries again). A node wired to
 * no agent is never used, so its problems are warnings.
 *
 * @example serverProblems(workflow, new Map(), {}) // [{ code: "mcp-server-missing", ... }] for every server node
 */
export function serverProblems(workflow: Pick<Workflow, "nodes" | "edges">, servers: ReadonlyMap<string, CanvasServer>, tools: ServerToolsById): ServerProblem[] {
  const wired = new Set(workflow.edges.filter((edge) => edge.kind === "service").map((edge) => edge.source));
  return workflow.nodes.flatMap((node): ServerProblem[] => {
    if (node.type !== mcpServerNodeType) return [];
    const choice = mcpServerChoice(node);
    if (!choice) return [];
    const severity = wired.has(node.id) ? "error" : "warning";
    const server = servers.get(choice.serverId);
    const at = { nodeId: node.id, field: "config.serverId" };
    if (!server) {
      return [{ ...at, code: "mcp-server-missing", severity, message: `The MCP server "${choice.serverId}" is not in the registry (deleted, or never registered here). Register it on the Servers page, or pick another server.` }];
    }
    if (server.availability === "disabled") {
      return [{ ...at, code: "mcp-server-disabled", severity, message: `The MCP server "${server.name}" is switched off in the registry. Switch it on on the Servers page, or pick another server.` }];
    }
    if (server.availability === "refused") {
      return [{ ...at, code: "mcp-server-refused", severity, message: `The stored entry of MCP server "${server.name}" is refused${server.reason ? `: ${server.reason}` : ""}. Fix it on the Servers page.` }];
    }
    if (server.availability === "not-granted") {
      return [{ ...at, code: "mcp-server-not-granted", severity, message: `This workflow may not use the MCP server "${server.name}"${server.reason ? `: ${server.reason}` : ""}. Ask an admin to grant it.` }];
    }
    if (server.availability === "reconnect") {
      return [{ ...at, code: "mcp-server-reconnect", severity, message: `The MCP server "${server.name}" must be reconnected (${server.reason ?? "its authorization can no longer be refreshed"}). Press Reconnect on the Servers page.` }];
    }
    const listed = tools[choice.serverId];
    if (listed?.status === "failed") {
      return [{ ...at, code: "mcp-tools-unlisted", severity: "warning", message: `The tools of "${server.name}" could not be listed: ${listed.error}. A run tries again.` }];
    }
    if (listed?.status !== "ready" || !choice.toolNames) return [];
    const offered = new Set(listed.tools.map((tool) => tool.name));
    return choice.toolNames
      .filter((name) => !offered.has(name))
      .map((name): ServerProblem => ({ nodeId: node.id, field: "config.toolNames", code: "mcp-tool-missing", severity, message: `The MCP server "${server.name}" no longer offers the tool "${name}". Untick it in the inspector.` }));
  });
}
