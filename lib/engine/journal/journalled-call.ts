import type { AgentTool, CallMeta, ToolOutcome } from "../../tools";
import type { TaintRegistry } from "../../trace";
import type { AttentionChoice, RecordedStep } from "./run-journal";
import { type RecordedCall, RunInterruption, type StepRecorder } from "./step-recorder";
import type { ApprovalGate } from "../approvals/approval-gate";
import type { QuestionDesk } from "../questions/question-desk";
import { attemptKeys } from "../../run-model";

export interface JournalledCallOptions {
  recorder: StepRecorder;
  /** The call's journal key, `<node run key>/t<turn>/c<index>`. */
  key: string;
  nodeId: string;
  taint: TaintRegistry;
  /** The approval policy, asked before a call that was neither recorded nor started runs (see ../approvals/approval-gate.ts). */
  gate?: Pick<ApprovalGate, "check">;
  /** Answers the questions a tool asks during the call from the journal, or stops the run to ask a person (see ../questions/question-desk.ts). */
  questions?: QuestionDesk;
  /** Writes the row of a call a person chose to skip (the tool never answered it). */
  writeSkippedRow(outcome: ToolOutcome, rowId: string, stepKey: string): Promise<void>;
}

/** What to do with a call, from what the journal holds: a pure decision. */
export type CallPlan =
  | { action: "replay"; recorded: RecordedCall }
  | { action: "run"; markStart: boolean }
  | { action: "needs-attention" }
  | { action: "skip"; result: unknown }
  | { action: "fail"; reason: string };

/**
 * The exactly-once rule for one call. A recorded call is replayed. A call
 * that never started runs; one that is not safe to repeat records that it
 * started first. A call that started and was not recorded (its process
 * died mid-call) runs again only when the tool says repeating it is safe
 * (readOnlyHint / idempotentHint, or the method's own declaration);
 * otherwise it waits for a person, whose choice decides. A choice answers
 * one attempt: run again starts a new attempt, with its own start, so a
 * crash during it waits for a person again.
 */
export function planCall(recorded: RecordedCall | undefined, started: boolean, choice: AttentionChoice | undefined, retrySafe: boolean): CallPlan {
  if (recorded) return { action: "replay", recorded };
  if (retrySafe) return { action: "run", markStart: false };
  if (!started) return { action: "run", markStart: true };
  if (!choice) return { action: "needs-attention" };
  if (choice.action === "skip") return { action: "skip", result: choice.result };
  if (choice.action === "fail") return { action: "fail", reason: choice.reason ?? "a person chose to fail the run at this call" };
  return { action: "run", markStart: true };
}

/** Where a step not safe to repeat stands: how many attempts started, the last one's start, the choice that answers it, and the key the next attempt's choice goes under. */
export interface Attempts {
  attempts: number;
  started: RecordedStep | undefined;
  choice: AttentionChoice | undefined;
  /** The choice key of the last attempt (of the first, before any): what a person's answer is recorded under. */
  choiceKey: string;
  /** The start and choice keys of the attempt that runs next. */
  next: { start: string; choice: string };
}

export function attemptsOf(recorder: Pick<StepRecorder, "has">, key: string): Attempts {
  let attempts = 0;
  while (recorder.has(attemptKeys(key, attempts + 1).start)) attempts++;
  const last = attemptKeys(key, Math.max(1, attempts));
  return {
    attempts,
    started: attempts > 0 ? recorder.has(last.start) : undefined,
    choice: attempts > 0 ? (recorder.has(last.choice)?.value as AttentionChoice | undefined) : undefined,
    choiceKey: last.choice,
    next: attemptKeys(key, attempts + 1),
  };
}

/** Calls a tool through the journal: replayed, run (and recorded with its trace row in one commit), or stopped for a person. */
export async function callThroughJournal(tool: AgentTool, args: unknown, meta: CallMeta, options: JournalledCallOptions): Promise<ToolOutcome> {
  const { recorder, key } = options;
  const recorded = recorder.lookup(key)?.value as RecordedCall | undefined;
  const questions = options.questions;
  const attempt = attemptsOf(recorder, key);
  // A call stopped for a question is made again once it is answered: the answer records the go-ahead for that attempt
  // (lib/db/questions.ts). A run that waited before answers did so is let through once, on its first attempt.
  const choice = attempt.choice ?? (attempt.attempts === 1 && questions?.asked(key) ? { action: "run-again" as const } : undefined);
  const plan = planCall(recorded, attempt.attempts > 0, choice, tool.retrySafe === true);
  const rowId = recorder.rowId(key);
  // A call stopped at a question still to be answered waits for that answer, whatever attempt it is in: it stopped cleanly, it did not crash.
  const pendingQuestion = recorded ? undefined : questions?.pending(key);
  if (pendingQuestion) throw questions!.waitFor(tool, (attempt.started?.value as { arguments?: unknown } | undefined)?.arguments ?? args, meta.nodeRunId, key, pendingQuestion, attempt.choiceKey);
  switch (plan.action) {
    case "replay":
      // A tool that only touches the run itself (memory) runs again, so the run's state is rebuilt; the model keeps the recorded answer.
      if (tool.rerunOnReplay) await tool.call(args, { ...meta, stepKey: key, rowId });
      if (plan.recorded.taint?.length) options.taint.taintNodeRun(meta.nodeRunId, plan.recorded.taint);
      return plan.recorded.outcome;
    case "needs-attention": {
      const message = `${tool.server}/${tool.name} had started when its worker stopped, and it is not marked safe to repeat (readOnlyHint or idempotentHint): a person decides whether to run it again, skip it with a result, or fail the run`;
      throw new RunInterruption("needs-attention", message, { key, choiceKey: attempt.choiceKey, nodeId: options.nodeId, nodeRunId: meta.nodeRunId, tool: tool.name, server: tool.server, arguments: args, message });
    }
    case "fail":
      throw new PersonFailedRun(plan.reason);
    case "skip": {
      const outcome: ToolOutcome = { output: typeof plan.result === "string" ? plan.result : JSON.stringify(plan.result ?? null), isError: false };
      await options.writeSkippedRow(outcome, rowId, key);
      await recorder.record({ key, kind: "tool-call", value: { outcome, skipped: true } satisfies RecordedCall });
      return outcome;
    }
    case "run": {
      recorder.ensureRunning();
      // A call that started ran with the arguments it started with (a person may have edited them when approving).
      const started = attempt.started?.value as { arguments?: unknown } | undefined;
      let callArgs = started ? started.arguments : args;
      if (options.gate && !started) {
        const gated = await options.gate.check(tool, args, meta, key);
        if (gated.action === "answered") return gated.outcome;
        callArgs = gated.args;
      }
      if (plan.markStart) await recorder.record({ key: attempt.next.start, kind: "call-start", value: { tool: tool.name, server: tool.server, arguments: callArgs } });
      // A call that changes something (even one safe to repeat) begins once the turn that asked for it is durable: a resume repeats it with the same arguments, never with a new answer's.
      else if (tool.hints?.readOnly !== true) await recorder.durable(askedBy(key));
      // Origins are only ever added, at the end: the count before the call marks the ones it brought (no copy of the node run's set).
      const before = options.taint.originList(meta.nodeRunId).length;
      const outcome = await callAsking(tool, callArgs, { ...meta, stepKey: key, rowId }, questions, plan.markStart ? attempt.next.choice : attempt.choiceKey);
      const taint = options.taint.originsSince(meta.nodeRunId, before);
      // A call safe to repeat may commit behind the run: lost, it is made again; any other call's outcome is durable before the run goes on.
      await recorder.record({ key, kind: "tool-call", value: { outcome: { output: outcome.output, isError: outcome.isError, ...(outcome.structured === undefined ? {} : { structured: outcome.structured }) }, ...(taint.length ? { taint } : {}) } satisfies RecordedCall }, { repeatable: tool.retrySafe === true });
      return outcome;
    }
  }
}

/** The model turn a call's key belongs to: `agent#1/t3/c0` → `agent#1/t3`. */
function askedBy(key: string): string {
  return key.replace(/\/c\d+$/, "");
}

/** Makes the call with its questions answered through the desk; a question still to be answered stops the call and the run. */
async function callAsking(tool: AgentTool, args: unknown, meta: CallMeta, questions: QuestionDesk | undefined, choiceKey: string): Promise<ToolOutcome> {
  if (!questions) return tool.call(args, meta);
  const stopped = new AbortController();
  const abort = () => stopped.abort(meta.signal?.reason);
  meta.signal?.addEventListener("abort", abort, { once: true });
  const asking = questions.forCall(tool, args, meta, meta.stepKey!, () => stopped.abort(), choiceKey);
  try {
    const outcome = await tool.call(args, { ...meta, signal: stopped.signal, ask: asking.ask });
    if (asking.interruption) throw asking.interruption;
    return outcome;
  } finally {
    meta.signal?.removeEventListener("abort", abort);
  }
}

/** A person chose "fail the run" for a call that waited for them: the node fails with their reason. */
export class PersonFailedRun extends Error {
  override name = "PersonFailedRun";
}
