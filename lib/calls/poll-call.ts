import type { Call } from "../manifest";
import { insertedText, renderValue } from "../sandbox";
import { CallFailure } from "./call-failure";
import { type CallContext, type CallReply, executeCall } from "./execute-call";

/** A poll never waits less than this between two requests, nor runs longer than maxPollDeadlineMs in all. */
export const minPollIntervalMs = 100;
export const maxPollDeadlineMs = 3_600_000;

type Poll = NonNullable<Call["poll"]>;

/** What the loop should do after a reply: pure, so each branch is tested alone. */
export function pollVerdict(input: { done: boolean; failed: boolean; attempts: number; maxAttempts?: number; elapsedMs: number; intervalMs: number; deadlineMs: number }):
  | "done"
  | "failed"
  | "again"
  | "out-of-attempts"
  | "past-deadline" {
  if (input.failed) return "failed";
  if (input.done) return "done";
  if (input.maxAttempts !== undefined && input.attempts >= input.maxAttempts) return "out-of-attempts";
  if (input.elapsedMs + input.intervalMs > input.deadlineMs) return "past-deadline";
  return "again";
}

/**
 * Makes a call, then polls (its own URL or `poll.url`, which reads the first
 * reply as `response`) until `until` holds, `failed` holds, `maxAttempts`
 * polls were made, or the deadline passed. Each poll goes through
 * executeCall: the URL guard, credentials and retries apply to every request.
 */
export async function pollCall(call: Call, scope: Record<string, unknown>, context: CallContext): Promise<CallReply> {
  const poll = call.poll as Poll;
  const now = context.now ?? Date.now;
  const sleep = context.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const number = async (value: unknown, fallback: number) => {
    const rendered = Number(await renderValue(value, scope, context.evaluator));
    return Number.isFinite(rendered) && rendered > 0 ? rendered : fallback;
  };
  const intervalMs = Math.max(await number(poll.intervalMs, 2000), minPollIntervalMs);
  const deadlineMs = Math.min(await number(poll.deadlineMs, 300_000), maxPollDeadlineMs);
  const maxAttempts = poll.maxAttempts === undefined ? undefined : await number(poll.maxAttempts, 1);
  const started = now();
  const first = await executeCall({ ...call, poll: undefined }, scope, context);
  let reply = first;
  let attempts = 0;
  for (;;) {
    const replyScope = { ...scope, response: reply.response, status: reply.status };
    const verdict = pollVerdict({
      done: Boolean(await evaluate(call, poll.until, replyScope, context, "until")),
      failed: poll.failed !== undefined && Boolean(await evaluate(call, poll.failed, replyScope, context, "failed")),
      attempts,
      maxAttempts,
      elapsedMs: now() - started,
      intervalMs,
      deadlineMs,
    });
    if (verdict === "done") return reply;
    if (verdict === "failed") {
      const message = poll.message === undefined ? "" : insertedText(await evaluate(call, poll.message, replyScope, context, "message"));
      throw new CallFailure("error-when", message || `call '${call.name}': the job failed`, call.name, reply.status);
    }
    if (verdict === "out-of-attempts") throw new CallFailure("timeout", `call '${call.name}': the job was not done after ${attempts} polls`, call.name, reply.status);
    if (verdict === "past-deadline") throw new CallFailure("timeout", `call '${call.name}': the job was not done within its deadline of ${deadlineMs} ms`, call.name, reply.status);
    await sleep(intervalMs, context.signal);
    if (context.signal?.aborted) throw new CallFailure("network", `call '${call.name}' was cancelled`, call.name);
    attempts += 1;
    // The poll reads the FIRST reply as `response` (the job id lives there), like the call's own templates read the scope.
    const pollScope = { ...scope, response: first.response, status: first.status };
    reply = await executeCall({ ...call, poll: undefined, retry: call.retry }, pollScope, context, poll.body === undefined ? undefined : { value: await renderValue(poll.body, pollScope, context.evaluator) }, {
      ...(poll.url !== undefined ? { url: poll.url } : {}),
      method: String((await renderValue(poll.method, pollScope, context.evaluator)) ?? "GET"),
      ...(poll.body === undefined ? { body: undefined } : {}),
    });
  }
}

async function evaluate(call: Call, expression: unknown, scope: Record<string, unknown>, context: CallContext, key: string): Promise<unknown> {
  try {
    return await renderValue(expression, scope, context.evaluator);
  } catch (error) {
    throw new CallFailure("template", `call '${call.name}': its poll.${key} failed: ${(error as Error).message}`, call.name);
  }
}
