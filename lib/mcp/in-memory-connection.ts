import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";

export interface InMemoryConnection {
  client: Client;
  /** The server's instructions, for the agent's system prompt. */
  instructions: string | undefined;
  close(): Promise<void>;
}

/**
 * Connects a client to a server in this process over the SDK's linked
 * in-memory transports: a real MCP session (initialize, list, call), not a
 * direct function call.
 */
export async function connectInMemory(server: Server, clientName = "switchboard-agent"): Promise<InMemoryConnection> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: clientName, version: "1.0.0" });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    instructions: client.getInstructions(),
    async close() {
      await client.close();
      await server.close();
    },
  };
}
