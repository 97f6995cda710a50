import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { sessionOfLegacyClient } from "../mcp-session";
import type { Connector } from "./server-link";

/** What the in-process connector saw, per server id. */
export interface InProcessStats {
  /** Sessions opened. */
  connects: Map<string, number>;
  /** tools/list requests the client sent. */
  lists: Map<string, number>;
  /** Sessions closed by the manager. */
  closes: Map<string, number>;
  /** Ends a server's live session from the server side, as if its process had died. */
  kill(serverId: string): Promise<void>;
}

/**
 * TEST DOUBLE: a Connector that ignores the entry's transport and opens a
 * real MCP session with an in-process server (the SDK's McpServer or Server)
 * over the SDK's linked in-memory transports, one new server per session.
 * It counts sessions and tools/list requests, and can cut a session from
 * the server's side.
 *
 * @example
 * const { connect, stats } = inProcessConnector({ search: () => searchServer() });
 * const manager = new ConnectionManager(registry, { connect });
 */
export function inProcessConnector(servers: Readonly<Record<string, () => McpServer | Server>>): { connect: Connector; stats: InProcessStats } {
  const live = new Map<string, InMemoryTransport>();
  const bump = (map: Map<string, number>, id: string) => map.set(id, (map.get(id) ?? 0) + 1);
  const stats: InProcessStats = {
    connects: new Map(),
    lists: new Map(),
    closes: new Map(),
    async kill(serverId) {
      await live.get(serverId)?.close();
    },
  };
  const connect: Connector = async (entry) => {
    const create = Object.hasOwn(servers, entry.id) ? servers[entry.id] : undefined;
    if (!create) throw new Error(`no in-process server '${entry.id}'`);
    const made = create();
    const server = made instanceof McpServer ? made.server : made;
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const send = clientTransport.send.bind(clientTransport);
    clientTransport.send = (message, options) => {
      if ("method" in message && message.method === "tools/list") bump(stats.lists, entry.id);
      return send(message, options);
    };
    const client = new Client({ name: "switchboard", version: "test" });
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    bump(stats.connects, entry.id);
    live.set(entry.id, serverTransport);
    const close = async () => {
      bump(stats.closes, entry.id);
      await client.close();
      await server.close();
    };
    return { client: sessionOfLegacyClient(client, close), close };
  };
  return { connect, stats };
}
