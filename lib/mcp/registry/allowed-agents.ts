import type { ServerEntry } from "./server-entry";

/** The agent asking for a server's tools: its node id and its node type. */
export interface AgentIdentity {
  nodeId: string;
  nodeType: string;
}

/**
 * Whether an agent may use a server: `allowedAgents` lists node ids or node
 * types; empty or absent lets every agent in. The connection manager asks
 * this before it resolves an agent's tools.
 *
 *   mayUseServer({ allowedAgents: ["researcher"] }, { nodeId: "writer", nodeType: "openai-agent" }) // false
 */
export function mayUseServer(entry: Pick<ServerEntry, "allowedAgents">, agent: AgentIdentity): boolean {
  const allowed = entry.allowedAgents ?? [];
  return allowed.length === 0 || allowed.includes(agent.nodeId) || allowed.includes(agent.nodeType);
}
