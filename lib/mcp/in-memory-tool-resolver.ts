import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AgentTool } from "../tools/agent-tool";
import { type McpAgentRef, McpResolveError, type McpSourceRequest, type McpToolResolver } from "../tools/mcp-tool-resolver";
import { agentToolsFromClient } from "./client-tools";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";

/** One in-process server the resolver offers, by registry-style id. */
export interface InMemoryServerEntry {
  /** Builds the server; called once, on first use. */
  create(): McpServer | Server;
  /** Node ids or node types that may use it; absent or empty: every agent (the registry's rule). */
  allowedAgents?: readonly string[];
}

/**
 * TEST DOUBLE: an McpToolResolver over in-process MCP servers (the SDK's
 * McpServer) reached through real client sessions over the SDK's in-memory
 * transport. It keeps the registry's rules that matter to an agent: an
 * unknown id is refused, and so is an agent the server's allowedAgents does
 * not name (by node id or node type). Connections are opened on first use
 * and closed by `close()`.
 *
 * @example
 * const resolver = new InMemoryMcpToolResolver({ "web-search": { create: () => searchServer(), allowedAgents: ["researcher"] } });
 */
export class InMemoryMcpToolResolver implements McpToolResolver {
  private readonly connections = new Map<string, Promise<InMemoryConnection>>();
  /** Every resolve call, in order: what a test may assert on. */
  readonly requests: Array<{ source: McpSourceRequest; agent: McpAgentRef }> = [];

  constructor(private readonly servers: Readonly<Record<string, InMemoryServerEntry>>) {}

  async resolve(source: McpSourceRequest, agent: McpAgentRef): Promise<AgentTool[]> {
    this.requests.push({ source, agent });
    const entry = Object.hasOwn(this.servers, source.serverId) ? this.servers[source.serverId] : undefined;
    if (!entry) throw new McpResolveError("unknown-server", source.serverId, `MCP server '${source.serverId}' is not in the registry`);
    const allowed = entry.allowedAgents ?? [];
    if (allowed.length && !allowed.includes(agent.nodeId) && !allowed.includes(agent.nodeType)) {
      throw new McpResolveError("agent-not-allowed", source.serverId, `agent '${agent.nodeId}' (${agent.nodeType}) is not allowed to use MCP server '${source.serverId}'`);
    }
    let tools: AgentTool[];
    try {
      const connection = await this.connect(source.serverId, entry);
      tools = await agentToolsFromClient(connection.client, source.serverId, { sendCaller: false });
    } catch (error) {
      throw new McpResolveError("server-unavailable", source.serverId, `MCP server '${source.serverId}' cannot be reached: ${(error as Error).message}`, { cause: error });
    }
    return source.toolNames ? tools.filter((tool) => source.toolNames?.includes(tool.name)) : tools;
  }

  async close(): Promise<void> {
    const open = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(open.map(async (connection) => (await connection).close()));
  }

  private connect(serverId: string, entry: InMemoryServerEntry): Promise<InMemoryConnection> {
    let connection = this.connections.get(serverId);
    if (!connection) {
      const server = entry.create();
      connection = connectInMemory(server instanceof McpServer ? server.server : server, "switchboard-agent");
      this.connections.set(serverId, connection);
    }
    return connection;
  }
}
