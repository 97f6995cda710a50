import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type ServerApprovalDefaults, serverDefaultFor } from "../manifest";
import { type AgentTool, type McpAgentRef, McpResolveError, type McpSourceRequest, type McpToolResolver } from "../tools";
import { agentToolsFromClient } from "./client-tools";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";

/** One in-process server the resolver offers, by registry-style id. */
export interface InMemoryServerEntry {
  /** Builds the server; called once, on first use. */
  create(): McpServer | Server;
  /** The registry's default approval policies for this server (as set on /servers). */
  approval?: ServerApprovalDefaults;
}

/**
 * TEST DOUBLE: an McpToolResolver over in-process MCP servers (the SDK's
 * McpServer) reached through real client sessions over the SDK's in-memory
 * transport. It keeps the registry's rule that matters to an agent: an
 * unknown id is refused. (Which workflow may use a server is the engine's
 * grant check, not the resolver's.) Connections are opened on first use
 * and closed by `close()`.
 *
 * @example
 * const resolver = new InMemoryMcpToolResolver({ "web-search": { create: () => searchServer() } });
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
    let tools: AgentTool[];
    try {
      const connection = await this.connect(source.serverId, entry);
      tools = await agentToolsFromClient(connection.client, source.serverId, { sendCaller: false });
    } catch (error) {
      throw new McpResolveError("server-unavailable", source.serverId, `MCP server '${source.serverId}' cannot be reached: ${(error as Error).message}`, { cause: error });
    }
    const chosen = source.toolNames ? tools.filter((tool) => source.toolNames?.includes(tool.name)) : tools;
    return chosen.map((tool) => withServerDefault(tool, entry.approval));
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

/** A registry tool with its server's default policy for it, when the registry sets one. */
export function withServerDefault(tool: AgentTool, defaults: ServerApprovalDefaults | undefined): AgentTool {
  const serverApproval = serverDefaultFor(defaults, tool.name);
  return serverApproval ? { ...tool, serverApproval } : tool;
}
