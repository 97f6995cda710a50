import type { SqlStatement } from "./sql-database";

/** `INSERT INTO "T" (…) VALUES (?, …)`, optionally `ON CONFLICT (…) DO NOTHING`: rows that can share one statement. */
const singleRowInsert = /^(\s*INSERT INTO\s+"\w+"\s*\([^)]*\)\s*VALUES\s*)(\((?:\s*\?\s*,)*\s*\?\s*\))(\s*ON CONFLICT\s*\([^)]*\)\s*DO NOTHING)?\s*$/i;

/** Postgres takes at most 65,535 parameters per statement; stay well under. */
const maxParameters = 30_000;

/**
 * Consecutive single-row inserts of the same SQL as one multi-row INSERT,
 * in the same order (so the same rows, the same conflicts skipped). Only
 * plain inserts and `DO NOTHING` merge: `DO UPDATE` may not touch one row
 * twice in a statement, and a guarded statement stays alone. Everything
 * else passes through unchanged.
 *
 * @example
 * mergeInserts([[`INSERT INTO "T" ("a") VALUES (?)`, [1]], [`INSERT INTO "T" ("a") VALUES (?)`, [2]]])
 * // [[`INSERT INTO "T" ("a") VALUES (?), (?)`, [1, 2]]]
 */
export function mergeInserts(statements: ReadonlyArray<SqlStatement>): SqlStatement[] {
  const merged: SqlStatement[] = [];
  let index = 0;
  while (index < statements.length) {
    const [sql, params, guard] = statements[index];
    const parts = guard ? null : singleRowInsert.exec(sql);
    let end = index + 1;
    if (parts) {
      const perRow = params.length;
      while (end < statements.length && statements[end][0] === sql && statements[end].length === 2 && (end - index + 1) * perRow <= maxParameters) end++;
    }
    if (!parts || end === index + 1) {
      merged.push(statements[index]);
    } else {
      const rows = statements.slice(index, end);
      merged.push([`${parts[1]}${rows.map(() => parts[2]).join(", ")}${parts[3] ?? ""}`, rows.flatMap((row) => row[1])]);
    }
    index = end;
  }
  return merged;
}
