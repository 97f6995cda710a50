import type { CanvasToolServers, ServedTools } from "../engine";
import { agentToolsFromClient } from "./client-tools";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";
import { createServiceNodeServer } from "./service-node-server";
import { createTaskServer } from "./task-server";

/** The tools of a connection, closing it when they cannot be listed. */
async function servedBy(connection: InMemoryConnection, server: string, close: () => Promise<void>): Promise<ServedTools> {
  try {
    const tools = await agentToolsFromClient(connection.client, server);
    return { tools, ...(connection.instructions ? { instructions: connection.instructions } : {}), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The engine's canvas tools as MCP: each service node on a service edge is
 * started as its own MCP server, and the Task Starts on task edges become
 * task-required tools of a tasks MCP server; the agent reaches either
 * through a real in-memory client session.
 */
export const canvasToolServers: CanvasToolServers = {
  async serviceNode(node, agentId) {
    const server = createServiceNodeServer(node);
    const connection = await connectInMemory(server, `switchboard-agent:${agentId}`);
    return servedBy(connection, node.nodeId, () => connection.close());
  },

  async taskStarts(starts, agentId) {
    const tasks = createTaskServer(starts);
    const connection = await connectInMemory(tasks.server.server, `switchboard-agent:${agentId}`);
    const taskStartOf = new Map(tasks.tools.map((tool) => [tool.name, tool.taskStartId]));
    // The tasks still running end and write their rows, then the session closes.
    const served = await servedBy(connection, "tasks", async () => {
      try {
        await tasks.close();
      } finally {
        await connection.close();
      }
    });
    return { ...served, tools: served.tools.map((tool) => ({ ...tool, server: taskStartOf.get(tool.name) ?? tool.server })) };
  },
};
