import { z } from "zod";
import { declaredServerId, type McpToolSource } from "./tool-source";
import type { Workflow, WorkflowNode } from "./workflow";

/**
 * The canvas form of an MCP server: a node of type `mcp-server` whose config
 * names a registry server by id (and, optionally, the tools it offers), with
 * one provider connector, `tools`. A service edge from it to an agent's tool
 * socket is the same as the agent declaring `{ type: "mcp", serverId,
 * toolNames }` (see wiredServerSources): the engine resolves both through the
 * registry, so the connection details and secrets never enter the document.
 */

export const mcpServerNodeType = "mcp-server";
/** The provider connector on top of an MCP server node. */
export const mcpServerConnector = "tools";

export const mcpServerConfig = z.strictObject({
  serverId: z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") })
    .pipe(declaredServerId)
    .meta({ title: "Server", description: "The id of a server in the MCP server registry (/servers)." }),
  toolNames: z
    .array(z.string().min(1, "must not be empty"))
    .min(1, "choose at least one tool, or leave the choice out for all of them")
    .optional()
    .meta({ title: "Tools", description: "Only these tools of the server; absent: all of them." }),
});

/** The server id and tool choice of an MCP server node, read leniently (a half-edited config gives what it has). */
export function mcpServerChoice(node: Pick<WorkflowNode, "type" | "config">): { serverId: string; toolNames?: string[] } | undefined {
  if (node.type !== mcpServerNodeType) return undefined;
  const serverId = node.config.serverId;
  if (typeof serverId !== "string" || serverId === "") return undefined;
  const names = node.config.toolNames;
  const toolNames = Array.isArray(names) && names.length > 0 ? names.filter((name): name is string => typeof name === "string") : undefined;
  return toolNames ? { serverId, toolNames } : { serverId };
}

/**
 * The MCP sources an agent gets from the server nodes wired to it: one per
 * service edge from an `mcp-server` node into the agent, in edge order.
 *
 * @example wiredServerSources(workflow, "agent") // [{ type: "mcp", serverId: "everything", toolNames: ["echo"] }]
 */
export function wiredServerSources(workflow: Pick<Workflow, "nodes" | "edges">, agentId: string): McpToolSource[] {
  const nodesById = new Map(workflow.nodes.map((node) => [node.id, node]));
  return workflow.edges.flatMap((edge): McpToolSource[] => {
    if (edge.kind !== "service" || edge.target !== agentId) return [];
    const provider = nodesById.get(edge.source);
    const choice = provider && mcpServerChoice(provider);
    return choice ? [{ type: "mcp", ...choice }] : [];
  });
}
