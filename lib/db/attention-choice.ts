import type { AttentionChoice } from "../engine/journal/run-journal";
import { toJsonText } from "./json-text";
import type { SqlDatabase } from "./sql/sql-database";

export type ChoiceResult = { ok: true } | { ok: false; error: string };

/**
 * Records a person's choice for the call a needs-attention run waits on
 * (run it again, skip it with a typed result, fail the run) in the run's
 * journal, under the attempt's choice key (`<call key>/choice`, `…/choice/2`
 * after a crash during a run-again), and queues the run again: the worker
 * that takes it replays everything before the call and applies the choice.
 */
export async function recordAttentionChoice(db: SqlDatabase, runId: string, choice: AttentionChoice, now: Date = new Date()): Promise<ChoiceResult> {
  const [run] = await db.query<{ status: string; attention: string | null }>(`SELECT "status", "attention" FROM "Run" WHERE "id" = ?`, [runId]);
  if (!run) return { ok: false, error: `There is no run "${runId}".` };
  const attention = run.attention ? (JSON.parse(run.attention) as { key?: unknown; choiceKey?: unknown }) : undefined;
  const key = attention?.key;
  if (run.status !== "needs-attention" || typeof key !== "string") return { ok: false, error: `The run does not wait for a decision (it is ${run.status}).` };
  // A choice answers one attempt of the step: a crash during the attempt it lets run asks again, under that attempt's key.
  const choiceKey = typeof attention?.choiceKey === "string" ? attention.choiceKey : `${key}/choice`;
  await db.transaction([
    [`INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, ?, 'choice', ?, 0, ?) ON CONFLICT ("runId", "key") DO NOTHING`, [runId, choiceKey, toJsonText({ ...choice, at: now.toISOString() }), now]],
    [`UPDATE "Run" SET "status" = 'queued', "attention" = NULL, "error" = NULL WHERE "id" = ? AND "status" = 'needs-attention'`, [runId]],
  ]);
  return { ok: true };
}
