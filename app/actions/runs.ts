"use server";

import { DatabaseError } from "@/lib/db";
import { getWorkflow } from "@/lib/db/app";
import { runService } from "@/lib/runs";
import { requireRole } from "@/lib/auth";
import type { AttentionChoice } from "@/lib/engine";

/** What startRun answers: the new run's id, or what is wrong and (when it is one field) which. */
export type StartRunResult = { ok: true; runId: string } | { ok: false; error: string; field?: string };
export type CancelRunResult = { ok: true } | { ok: false; error: string };

/**
 * Starts a run of a saved workflow and returns its id at once; the run goes
 * on in the background and /runs/<id> follows it. Everything the person can
 * fix is checked first and refused with a message (and `field`, e.g.
 * `input.question`, when one input field is at fault): an unknown workflow,
 * a document that does not parse, graph errors, an input that does not
 * match the Start's fields. No run is recorded for a refusal.
 */
export async function startRun(workflowId: string, input: Record<string, unknown>): Promise<StartRunResult> {
  const actor = await requireRole("runner");
  if (typeof workflowId !== "string" || workflowId.trim() === "") return { ok: false, error: "Choose a workflow to run.", field: "workflowId" };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, error: "The input must be an object with one property per input field.", field: "input" };
  }
  try {
    const record = await getWorkflow(workflowId);
    if (!record) return { ok: false, error: `There is no workflow "${workflowId}"; it may have been deleted.`, field: "workflowId" };
    // Checked as the engine and the canvas check it, so a refusal records no failed run.
    const started = await runService().start({ workflowId: record.id, document: record.document, input, origin: { kind: "canvas", by: actor.email } });
    if (!started.ok) return { ok: false, error: started.code === "not-a-workflow" ? `The workflow's document is not valid: ${started.error}` : started.error, ...(started.field ? { field: started.field } : {}) };
    return { ok: true, runId: started.runId };
  } catch (error) {
    return { ok: false, error: unexpected("The run could not be started", error) };
  }
}

/**
 * Asks a run to stop, whichever process runs it. A queued run (or one
 * waiting for a person) ends cancelled at once; a running one is flagged,
 * and its worker aborts it on its next heartbeat (within about a second):
 * its nodes end as cancelled and the run as cancelled once the engine has
 * closed what it opened. The trace page shows that when it happens.
 */
export async function cancelRun(runId: string): Promise<CancelRunResult> {
  await requireRole("runner");
  if (typeof runId !== "string" || runId === "") return { ok: false, error: "Which run? No run id was given." };
  try {
    const result = await runService().cancel(runId);
    if (result === "unknown") return { ok: false, error: `There is no run "${runId}".` };
    if (result === "ended") return { ok: false, error: "The run has already ended." };
    return { ok: true };
  } catch (error) {
    return { ok: false, error: unexpected("The run could not be cancelled", error) };
  }
}

/**
 * A person's decision for the call a needs-attention run stopped at: run it
 * again, skip it with the result they type (JSON, or plain text), or fail
 * the run. The choice is journalled and the run is queued again.
 */
export async function decideRunAttention(runId: string, decision: { action: string; result?: string; reason?: string; choiceKey?: string }): Promise<CancelRunResult> {
  await requireRole("runner");
  if (typeof runId !== "string" || runId === "") return { ok: false, error: "Which run? No run id was given." };
  const choice = parseChoice(decision);
  if (!choice.ok) return choice;
  try {
    // The attempt the page showed: a choice never answers a later crash than the one the person saw.
    return await runService().choose(runId, choice.choice, typeof decision.choiceKey === "string" ? decision.choiceKey : undefined);
  } catch (error) {
    return { ok: false, error: unexpected("The decision could not be recorded", error) };
  }
}

/** A change other than an edited answer: the step's agent's system prompt or model, or the workflow's current saved version as the document. */
export interface ForkChangeInput {
  prompt?: string;
  model?: string;
  currentVersion?: boolean;
}

/** What forkRunAt answers: the fork's id, or what is wrong and which field (`runId`, `at`, `result`, `prompt`, `model`, `document`, `change`). */
export type ForkRunResult = { ok: true; runId: string } | { ok: false; error: string; field?: string };

/**
 * Forks a finished run at one of its recorded steps (a tool call, a model
 * turn, a step node's result), optionally with the step's value edited
 * (JSON: the tool's result, the model's answer `{text, toolCalls}`, the
 * step's outputs): a new run of the same document, queued, that replays the
 * parent's journal up to that step without calling anything and goes on
 * live after it. Or, with `change`, a different system prompt or model for
 * the agent whose step it is, or the workflow's current saved version
 * (see lib/db/run-fork.ts for what is replayed then). Refused with a
 * message, and nothing created, for a run still running, a step it does
 * not have, a result that is not JSON, an empty prompt, a model id that is
 * not one, an invalid document, or two changes at once.
 */
export async function forkRunAt(runId: string, at: string, result?: string, change?: ForkChangeInput): Promise<ForkRunResult> {
  const actor = await requireRole("runner");
  if (typeof runId !== "string" || runId === "") return { ok: false, error: "Which run? No run id was given.", field: "runId" };
  if (typeof at !== "string" || at === "") return { ok: false, error: "Which step? No step was given.", field: "at" };
  if (result !== undefined && typeof result !== "string") return { ok: false, error: "The edited result must be JSON text.", field: "result" };
  if (change !== undefined && (typeof change !== "object" || change === null)) return { ok: false, error: "Choose what the fork changes.", field: "change" };
  if (change?.prompt !== undefined && typeof change.prompt !== "string") return { ok: false, error: "The system prompt must be text.", field: "prompt" };
  if (change?.model !== undefined && typeof change.model !== "string") return { ok: false, error: "The model must be a model id.", field: "model" };
  try {
    const forked = await runService().fork({
      runId,
      at,
      by: actor.email,
      ...(result !== undefined && result.trim() !== "" ? { result } : {}),
      ...(change?.prompt !== undefined ? { prompt: change.prompt } : {}),
      ...(change?.model !== undefined ? { model: change.model } : {}),
      ...(change?.currentVersion === true ? { document: { source: "workflow" as const } } : {}),
    });
    return forked.ok ? { ok: true, runId: forked.runId } : { ok: false, error: forked.error, field: forked.field };
  } catch (error) {
    return { ok: false, error: unexpected("The run could not be forked", error) };
  }
}

function parseChoice(decision: { action: string; result?: string; reason?: string }): { ok: true; choice: AttentionChoice } | { ok: false; error: string } {
  if (decision?.action === "run-again") return { ok: true, choice: { action: "run-again" } };
  if (decision?.action === "fail") return { ok: true, choice: { action: "fail", reason: decision.reason?.trim() || "a person chose to fail the run at this call" } };
  if (decision?.action !== "skip") return { ok: false, error: "Choose run again, skip, or fail." };
  const text = decision.result ?? "";
  if (text.trim() === "") return { ok: false, error: "Type the result the call should have given (JSON, or plain text)." };
  try {
    return { ok: true, choice: { action: "skip", result: JSON.parse(text) } };
  } catch {
    return { ok: true, choice: { action: "skip", result: text } };
  }
}

/** A clear line for the person, the whole error for the server log; never a stack trace in the answer. */
function unexpected(what: string, error: unknown): string {
  console.error(`${what}:`, error);
  if (error instanceof DatabaseError) return `${what}: ${error.message}`;
  const reason = error instanceof Error ? error.message.split("\n")[0] : "";
  return `${what} because of an error on our side${reason ? ` (${reason})` : ""}. The server log has the details.`;
}
