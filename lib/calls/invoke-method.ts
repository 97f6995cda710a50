import type { ServiceMethod } from "../manifest";
import { renderValue, SandboxError } from "../sandbox";
import { CallFailure } from "./call-failure";
import type { CallContext } from "./execute-call";
import { runCalls } from "./run-calls";

/** What a method answered: a value (with structured content when it has an outputSchema) or a failure the model can act on. */
export type MethodResult = { isError: false; value: unknown; structured?: Record<string, unknown> } | { isError: true; message: string };

export interface MethodScope {
  params: Record<string, unknown>;
  config: Record<string, unknown>;
  user?: unknown;
  run?: RunFacts;
}

/** The `run` root: which run, workflow and node a call is made for (ids only, nothing secret). */
export interface RunFacts {
  id: string;
  workflowId: string | null;
  nodeId: string;
  /** Who started the run, when the run records it. */
  startedBy: string | null;
}

/**
 * Runs one service method: its calls in order, then `returns` over
 * `response` (the last reply), `status`, `calls`, `params` and `config` —
 * never `credentials`. Without `returns` the answer is the last reply.
 * A call that failed, a `returns` that threw or a result that does not fit
 * the outputSchema come back as `isError` results, never as exceptions.
 * Parameters are validated by the caller (the MCP server) before this runs.
 */
export async function invokeMethod(method: ServiceMethod, scope: MethodScope, context: CallContext): Promise<MethodResult> {
  const base = { params: scope.params, config: scope.config, user: scope.user ?? null, run: scope.run ?? null };
  let outcome;
  try {
    outcome = await runCalls(method.calls, base, context);
  } catch (error) {
    if (error instanceof CallFailure) return { isError: true, message: error.message };
    throw error;
  }
  let value: unknown;
  try {
    const resultScope = { ...base, calls: outcome.calls, response: outcome.last?.response ?? null, status: outcome.last?.status ?? null };
    value = method.returns === undefined ? (outcome.last?.response ?? null) : await renderValue(method.returns, resultScope, context.evaluator);
  } catch (error) {
    return { isError: true, message: returnsFailure(error) };
  }
  if (!method.outputSchema) return { isError: false, value };
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { isError: true, message: "the method's result is not an object, but its outputSchema describes one" };
  }
  return { isError: false, value, structured: value as Record<string, unknown> };
}

function returnsFailure(error: unknown): string {
  const sandboxError = error instanceof SandboxError ? error : (error as { cause?: unknown }).cause;
  if (sandboxError instanceof SandboxError && sandboxError.code === "thrown") return sandboxError.details.reason ?? sandboxError.message;
  return `the method's result could not be computed: ${(error as Error).message}`;
}
