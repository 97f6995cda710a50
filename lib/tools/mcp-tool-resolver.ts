import type { AgentTool } from "./agent-tool";

/** An `mcp` tool source as the resolver is asked for it. */
export interface McpSourceRequest {
  serverId: string;
  /** Only these tools; absent: all of the server's tools. */
  toolNames?: readonly string[];
}

/** The agent asking, by node id and node type (the connection manager names it to the server as the caller). */
export interface McpAgentRef {
  nodeId: string;
  nodeType: string;
}

/** What the run lends a resolve call. */
export interface McpResolveOptions {
  /** Called with every secret value the resolver connects with, so the run redacts it from its trace. */
  onSecret?: (value: string) => void;
  /** The run's signal: a cancelled run stops waiting for a server. */
  signal?: AbortSignal;
}

export type McpResolveProblem = "unknown-server" | "server-unavailable";

/** Why a server's tools could not be had: the registry has no such server, or it cannot be reached. */
export class McpResolveError extends Error {
  override name = "McpResolveError";
  constructor(
    readonly code: McpResolveProblem,
    readonly serverId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Turns `{ type: "mcp", serverId, toolNames? }` into callable tools. The
 * run's connection manager implements it (connections, timeouts, retries,
 * tests use InMemoryMcpToolResolver. Whether the workflow may use the
 * server at all is the engine's grant check, made before resolving.
 *
 * Contract:
 * - resolves to the server's tools filtered to `toolNames` (a listed name
 *   the server lacks is simply absent: the engine reports it);
 * - rejects with McpResolveError: `unknown-server`, `server-unavailable`
 *   (could not connect or list);
 * - the tools it returns do NOT write trace rows: the engine wraps each one
 *   so every call writes exactly one row (server = serverId, tainted) and
 *   lands in the run's taint registry. A resolver needs no run to serve;
 * - the secrets it connects with go to `options.onSecret` (redaction).
 */
export interface McpToolResolver {
  resolve(source: McpSourceRequest, agent: McpAgentRef, options?: McpResolveOptions): Promise<AgentTool[]>;
}
