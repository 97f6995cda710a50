import type { TokenUsage } from "../ai/model";

/** What one tool call answered, as the loop hands it back to the model. */
export interface ToolOutcome {
  /** Text for the model (structured results as JSON). */
  output: string;
  isError: boolean;
  /** The structured result, when the tool has an output schema. */
  structured?: unknown;
}

/** Who is calling, for the trace row the tool writes. */
export interface CallMeta {
  /** The model's id for this call. */
  callId: string;
  /** The node run that called. */
  nodeRunId: string;
  /** The workflow node that called. */
  callerNodeId: string;
  /** Token usage of the turn that asked for this call. */
  usage?: TokenUsage;
  signal?: AbortSignal;
}

/**
 * One tool an agent can call, from any layer (builtin, custom, a service
 * node over MCP, an external MCP server, a Task). The tool side writes the
 * trace row for each call it answers.
 */
export interface AgentTool {
  /** The tool's own name (as its server knows it). */
  name: string;
  /** Where it comes from: a node id, a server id, or "builtin". */
  server: string;
  description: string;
  /** JSON Schema of its arguments. */
  inputSchema: Record<string, unknown>;
  call(args: unknown, meta: CallMeta): Promise<ToolOutcome>;
}
