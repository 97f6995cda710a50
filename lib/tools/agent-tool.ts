import type { TokenUsage } from "../ai";
import type { QuestionAsker } from "../run-model/tool-question";

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
  /** The call's journal key (`<node run key>/t<turn>/c<index>`): the trace row carries it, so the row is the call's journal entry. */
  stepKey?: string;
  /** The model turn (1, 2, …) and the call's place in it (0, 1, …): with the node run, the call's journal key. */
  turn?: number;
  callIndex?: number;
  /** The id the call's trace row must have: the same on every resume. A fresh one when absent. */
  rowId?: string;
  /** Answers a question the tool asks while it runs (MCP elicitation); absent where no one can answer. */
  ask?: QuestionAsker;
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
  /**
   * Repeating a call with the same arguments is safe (MCP readOnlyHint or
   * idempotentHint, a method's declaration, a task whose sub-flow is
   * journalled): a call caught mid-flight by a crash simply runs again.
   * Otherwise it waits for a person (needs-attention).
   */
  retrySafe?: boolean;
  /** What the tool says about itself, for approval policies: MCP readOnlyHint / destructiveHint / openWorldHint, a method's declaration, a built-in's nature. */
  hints?: { readOnly?: boolean; destructive?: boolean; openWorld?: boolean };
  /** The tool's own default approval policy: its method's `approval` in a service manifest (Switchboard's own service nodes only); checked where it is applied. */
  approval?: unknown;
  /** Its registry server's default policy for it (set on /servers): the per-tool entry, else the server-wide one. */
  serverApproval?: { policy: unknown; scope: "tool" | "server" };
  /** The tool touches only the run itself (its memory): on resume it runs again, so that state is rebuilt. */
  rerunOnReplay?: boolean;
  call(args: unknown, meta: CallMeta): Promise<ToolOutcome>;
}
