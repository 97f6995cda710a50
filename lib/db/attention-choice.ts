import type { AttentionChoice } from "../engine";
import { toJsonText } from "./json-text";
import { GuardFailedError, type SqlDatabase } from "./sql/sql-database";
import { firstChoiceKey } from "../run-model";
import { requeueWaitingRun } from "./queued-runs";

export type ChoiceResult = { ok: true } | { ok: false; error: string };

/**
 * Records a person's choice for the call a needs-attention run waits on
 * (run it again, skip it with a typed result, fail the run) in the run's
 * journal, under the attempt's choice key (`<call key>/choice`, `…/choice/2`
 * after a crash during a run-again), and queues the run again: the worker
 * that takes it replays everything before the call and applies the choice.
 */
export async function recordAttentionChoice(db: SqlDatabase, runId: string, choice: AttentionChoice, now: Date = new Date(), shown?: string): Promise<ChoiceResult> {
  const [run] = await db.query<{ status: string; attention: string | null }>(`SELECT "status", "attention" FROM "Run" WHERE "id" = ?`, [runId]);
  if (!run) return { ok: false, error: `There is no run "${runId}".` };
  const attention = run.attention ? (JSON.parse(run.attention) as { key?: unknown; choiceKey?: unknown; approval?: unknown; question?: unknown }) : undefined;
  const key = attention?.key;
  if (run.status !== "needs-attention" || typeof key !== "string") return { ok: false, error: `The run does not wait for a decision (it is ${run.status}).` };
  // An approval or a question is answered on its own page: a choice recorded now would wait for a crash that has not happened.
  if (attention?.approval) return { ok: false, error: "The run waits for an approval of its call, not for a choice after a crash: approve or deny it on the Approvals page." };
  if (attention?.question) return { ok: false, error: "The run waits for the answer to a tool's question, not for a choice after a crash: answer it on the Questions page." };
  // A choice answers one attempt of the step: a crash during the attempt it lets run asks again, under that attempt's key.
  const choiceKey = typeof attention?.choiceKey === "string" ? attention.choiceKey : firstChoiceKey(key);
  if (shown !== undefined && shown !== choiceKey) return { ok: false, error: "The call was tried again and stopped again since this page was loaded: reload it and decide on what happened since." };
  try {
    await db.transaction([
      // The attention read above still holds (no one decided or resumed the run meanwhile).
      [`SELECT 1 AS "waiting" FROM "Run" WHERE "id" = ? AND "status" = 'needs-attention' AND "attention" = ?`, [runId, run.attention], { reason: "the run was decided or resumed meanwhile" }],
      [`INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, ?, 'choice', ?, 0, ?) ON CONFLICT ("runId", "key") DO NOTHING`, [runId, choiceKey, toJsonText({ ...choice, at: now.toISOString() }), now]],
      requeueWaitingRun(runId),
    ]);
  } catch (error) {
    if (error instanceof GuardFailedError) return { ok: false, error: "Someone decided for this run, or it was resumed, since this page was loaded: reload it." };
    throw error;
  }
  return { ok: true };
}
