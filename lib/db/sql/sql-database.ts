/**
 * The small SQL surface the run journal and the run queue need, on SQLite
 * (better-sqlite3, synchronous and in-process) and on Postgres (pg). Written
 * beside Prisma, on the same tables, because the journal's write path must
 * be one short transaction per step with no read-back; Prisma stays the way
 * the app reads and edits everything else.
 *
 * SQL is written once with `?` placeholders and double-quoted identifiers;
 * the Postgres side numbers the placeholders. Booleans and dates are passed
 * as JS values and stored as each database (and Prisma) expects them.
 */
export interface SqlDatabase {
  readonly dialect: "sqlite" | "postgres";
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs one statement; resolves to the number of rows it changed. */
  execute(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Runs the statements in one transaction: all of them are committed, or
   * none. Resolves once they are committed. Transactions asked for while
   * another commits may share its successor's commit (group commit); a
   * transaction that fails never takes another one down with it.
   */
  transaction(statements: ReadonlyArray<SqlStatement>, options?: TransactionOptions): Promise<void>;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * The commit must survive a crash of the database server or of the
   * machine, not only of this process: Postgres commits it with
   * synchronous_commit on, SQLite with synchronous=FULL (each an fsync).
   * For what something not safe to repeat waits for (a call's start).
   */
  durable?: boolean;
}

/**
 * One statement of a transaction. With a guard, the statement is a query
 * that must return a row: when it returns none, the whole transaction is
 * rolled back and rejects with a GuardFailedError carrying the guard's
 * reason (a fencing check: "this worker still holds the run").
 */
export type SqlStatement = readonly [sql: string, params: readonly unknown[]] | readonly [sql: string, params: readonly unknown[], guard: StatementGuard];

export interface StatementGuard {
  /** Said when the query returned no row, e.g. "another worker took the run over". */
  reason: string;
}

/** A transaction was refused by one of its guards; nothing of it was written. */
export class GuardFailedError extends Error {
  override name = "GuardFailedError";
}

/** The database's "now" as both databases store it (Prisma writes SQLite dates as ISO text with an offset). */
export function sqlTime(date: Date, dialect: SqlDatabase["dialect"]): string {
  const iso = date.toISOString();
  return dialect === "sqlite" ? iso.replace("Z", "+00:00") : iso;
}

/** A date column as read from either database: a Date on Postgres; ISO text, or epoch milliseconds, on SQLite. */
export function isoFromSql(value: unknown): string {
  return (value instanceof Date ? value : new Date(typeof value === "string" && /^\d+$/.test(value) ? Number(value) : (value as string | number))).toISOString();
}
