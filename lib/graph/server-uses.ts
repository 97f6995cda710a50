import { wiredServerSources } from "./mcp-server-node";
import type { Workflow } from "./workflow";

/** One agent's use of a registry MCP server: which node asks, by id and type. */
export interface ServerUse {
  serverId: string;
  agentId: string;
  agentType: string;
}

/**
 * Every registry server a workflow's agents reach: their own `tools`
 * (`{ type: "mcp", serverId }`), the same list in their config, and the
 * MCP server nodes wired to them. Used to grant a workflow what it
 * already used when allowedAgents moved into grants, and to list what a
 * workflow needs granted.
 *
 *   serverUses(workflow) // [{ serverId: "everything", agentId: "agent", agentType: "openai-agent" }]
 */
export function serverUses(workflow: Pick<Workflow, "nodes" | "edges">): ServerUse[] {
  return workflow.nodes.flatMap((node) => {
    const declared = [...(node.tools ?? []), ...(Array.isArray(node.config.tools) ? node.config.tools : [])];
    const ids = declared.flatMap((source) => mcpServerIdOf(source) ?? []);
    ids.push(...wiredServerSources(workflow, node.id).map((source) => source.serverId));
    return [...new Set(ids)].map((serverId) => ({ serverId, agentId: node.id, agentType: node.type }));
  });
}

/** The server id of an mcp tool source in any of its written forms (`{ type: "mcp", serverId }`, `{ mcp: id }`, snake case). */
function mcpServerIdOf(source: unknown): string | undefined {
  if (!source || typeof source !== "object") return undefined;
  const record = source as Record<string, unknown>;
  if (typeof record.mcp === "string") return record.mcp;
  const id = record.serverId ?? record.server_id;
  return record.type === "mcp" && typeof id === "string" ? id : undefined;
}
