import { cassetteStepKey, type StoredCassette } from "../evals";
import { fromJsonText, toJsonText } from "./json-text";
import type { SqlDatabase, SqlStatement } from "./sql/sql-database";

/**
 * A test run's cassette, written in the run's own start transaction as a
 * journal entry beside its steps (kind `cassette`, never replayed as a
 * step): the worker that takes the run, in whichever process, reads it
 * from there.
 */
export function cassetteInsert(runId: string, cassette: StoredCassette, now: Date): SqlStatement {
  return [`INSERT INTO "RunStep" ("runId", "key", "kind", "value", "attempt", "recordedAt") VALUES (?, ?, 'cassette', ?, 0, ?)`, [runId, cassetteStepKey, toJsonText(cassette), now]];
}

/** The cassette a test run replays; null for any other run. */
export async function readCassette(db: SqlDatabase, runId: string): Promise<StoredCassette | null> {
  const [row] = await db.query<{ value: string }>(`SELECT "value" FROM "RunStep" WHERE "runId" = ? AND "key" = ? AND "kind" = 'cassette'`, [runId, cassetteStepKey]);
  return row ? (fromJsonText(row.value) as StoredCassette) : null;
}
