import type { Call } from "../manifest";
import { renderValue } from "../sandbox";
import { CallFailure } from "./call-failure";
import { type CallContext, type CallReply, defaultSleep, executeCall } from "./execute-call";
import { loopStep } from "./loop-step";
import { paginateCall } from "./paginate-call";
import { pollCall } from "./poll-call";
import { presignCall } from "./presign-call";

export interface CallsOutcome {
  /** Each call's reply by name; a skipped call leaves no entry. */
  calls: Record<string, unknown>;
  /** The last call that ran, if any. */
  last?: CallReply;
}

/** A chunked call never sends more batches than this. */
export const maxBatches = 1000;

/**
 * Makes a list of calls in order. A call whose `when` is false is skipped;
 * later calls read earlier replies as `calls.<name>` and the node's saved
 * state as `state`. Stops at the first failure (a CallFailure).
 */
export async function runCalls(list: readonly Call[], scope: Record<string, unknown>, context: CallContext): Promise<CallsOutcome> {
  const calls: Record<string, unknown> = {};
  let last: CallReply | undefined;
  for (const call of list) {
    const callScope = { ...scope, calls, state: context.state?.get() ?? null };
    if (call.when !== undefined && !(await evaluate(call, call.when, callScope, context, "when"))) continue;
    last = await performCall(call, callScope, context);
    calls[call.name] = last.response;
  }
  return { calls, last };
}

/** One entry of a call list: a state step, or a request with its features (chunk → poll / paginate → request). */
async function performCall(call: Call, scope: Record<string, unknown>, context: CallContext): Promise<CallReply> {
  if (call.state !== undefined) return stateStep(call, scope, context);
  if (call.wait !== undefined) return waitStep(call, scope, context);
  if (call.presign !== undefined) return presignCall(call, scope, context);
  if (call.loop !== undefined) return loopStep(call, scope, context);
  if (!call.chunk) return request(call, scope, context);
  const items = await evaluate(call, call.chunk.items, scope, context, "chunk.items");
  if (!Array.isArray(items)) throw new CallFailure("template", `call '${call.name}': chunk.items did not give a list`, call.name);
  const size = Math.max(1, Math.floor(Number(await renderValue(call.chunk.size, scope, context.evaluator)) || 1));
  const batches = Math.ceil(items.length / size);
  if (batches > maxBatches) throw new CallFailure("template", `call '${call.name}': ${items.length} items make ${batches} batches, more than the ${maxBatches} allowed`, call.name);
  const replies: unknown[] = [];
  let reply: CallReply = { status: 200, headers: {}, response: [] };
  for (let index = 0; index < batches; index++) {
    reply = await request({ ...call, chunk: undefined }, { ...scope, batch: items.slice(index * size, (index + 1) * size), batchIndex: index }, context);
    replies.push(reply.response);
  }
  return { ...reply, response: replies };
}

function request(call: Call, scope: Record<string, unknown>, context: CallContext): Promise<CallReply> {
  if (call.poll) return pollCall(call, scope, context);
  if (call.paginate) return paginateCall(call, scope, context);
  return executeCall(call, scope, context);
}

/** `state: save` keeps a value for the node (its later calls and its next run); `state: read` gives it back. No request is made. */
async function stateStep(call: Call, scope: Record<string, unknown>, context: CallContext): Promise<CallReply> {
  if (call.state === "read") return { status: 200, headers: {}, response: context.state?.get() ?? null };
  const value = await evaluate(call, call.value, scope, context, "value");
  if (!context.state) throw new CallFailure("template", `call '${call.name}': this node has no state store here (state is kept per workflow node)`, call.name);
  context.state.set(value);
  return { status: 200, headers: {}, response: value };
}

/** The longest a `wait` step may wait. */
export const maxWaitMs = 3_600_000;

/** `wait`: no request; the run pauses for the given time (a cancellation ends the wait early). */
async function waitStep(call: Call, scope: Record<string, unknown>, context: CallContext): Promise<CallReply> {
  const ms = Number(await evaluate(call, call.wait, scope, context, "wait"));
  if (!Number.isFinite(ms) || ms < 0) throw new CallFailure("template", `call '${call.name}': wait must be a number of milliseconds, got ${JSON.stringify(ms)}`, call.name);
  if (ms > maxWaitMs) throw new CallFailure("template", `call '${call.name}': a wait of ${ms} ms is longer than the ${maxWaitMs / 60_000} minutes allowed`, call.name);
  const started = context.now?.() ?? Date.now();
  await (context.sleep ?? defaultSleep)(ms, context.signal);
  if (context.signal?.aborted) throw new CallFailure("network", `call '${call.name}' was cancelled while waiting`, call.name);
  return { status: 200, headers: {}, response: { waitedMs: Math.max(ms, (context.now?.() ?? Date.now()) - started) } };
}

async function evaluate(call: Call, expression: unknown, scope: Record<string, unknown>, context: CallContext, key: string): Promise<unknown> {
  try {
    return await renderValue(expression, scope, context.evaluator);
  } catch (error) {
    throw new CallFailure("template", `call '${call.name}': its '${key}' failed: ${(error as Error).message}`, call.name);
  }
}
