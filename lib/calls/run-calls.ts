import type { Call } from "../manifest/schemas";
import { renderValue } from "../sandbox";
import { CallFailure } from "./call-failure";
import { type CallContext, type CallReply, executeCall } from "./execute-call";

export interface CallsOutcome {
  /** Each call's reply by name; a skipped call leaves no entry. */
  calls: Record<string, unknown>;
  /** The last call that ran, if any. */
  last?: CallReply;
}

/**
 * Makes a list of calls in order. A call whose `when` is false is skipped;
 * later calls read earlier replies as `calls.<name>`. Stops at the first
 * failure (a CallFailure).
 */
export async function runCalls(list: readonly Call[], scope: Record<string, unknown>, context: CallContext): Promise<CallsOutcome> {
  const calls: Record<string, unknown> = {};
  let last: CallReply | undefined;
  for (const call of list) {
    const callScope = { ...scope, calls };
    if (call.when !== undefined && !evaluateWhen(call, callScope, context)) continue;
    last = await executeCall(call, callScope, context);
    calls[call.name] = last.response;
  }
  return { calls, last };
}

function evaluateWhen(call: Call, scope: Record<string, unknown>, context: CallContext): boolean {
  try {
    return Boolean(renderValue(call.when, scope, context.evaluator));
  } catch (error) {
    throw new CallFailure("template", `call '${call.name}': its 'when' failed: ${(error as Error).message}`, call.name);
  }
}
