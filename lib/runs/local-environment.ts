import { createEngineEnvironment, type EngineEnvironment } from "../engine";
import { canvasToolServers } from "../mcp";

/**
 * The engine's environment on one machine (see createEngineEnvironment:
 * node types from nodes/, the shared sandbox, models, credentials from the
 * server's environment, tool search) with the canvas's tool servers: service
 * nodes and Task Starts served as in-memory MCP servers (lib/mcp).
 */
export async function createLocalEnvironment(options: { nodesDir?: string; overrides?: Partial<EngineEnvironment> } = {}): Promise<EngineEnvironment> {
  return createEngineEnvironment({ ...options, overrides: { canvasTools: canvasToolServers, ...options.overrides } });
}
