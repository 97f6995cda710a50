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
  /** Runs the statements in one transaction: all of them are committed, or none. */
  transaction(statements: ReadonlyArray<readonly [string, readonly unknown[]]>): Promise<void>;
  close(): Promise<void>;
}

/** The database's "now" as both databases store it (Prisma writes SQLite dates as ISO text with an offset). */
export function sqlTime(date: Date, dialect: SqlDatabase["dialect"]): string {
  const iso = date.toISOString();
  return dialect === "sqlite" ? iso.replace("Z", "+00:00") : iso;
}
