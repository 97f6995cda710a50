import { randomBytes } from "node:crypto";
import pg from "pg";
import { groupCommit } from "./group-commit";
import { mergeInserts } from "./merge-inserts";
import { resilientPool } from "./postgres-pool";
import { GuardFailedError, type SqlDatabase, type SqlStatement } from "./sql-database";

/**
 * Postgres through a pg pool. A step's transaction runs with
 * `synchronous_commit = off`: a worker that dies loses nothing (the server
 * has the commit); only a crash of the database server itself can lose the
 * last few milliseconds, which the run then redoes from its journal.
 *
 * A transaction is one round trip: BEGIN, its statements (consecutive rows
 * for one table as one multi-row INSERT) and COMMIT go as one simple query,
 * values inlined as escaped literals. A step then costs one wait for the
 * server instead of one per statement. Transactions are group-committed.
 */
export function postgresDatabase(url: string, options: { max?: number } = {}): SqlDatabase {
  // A connection that loses its server (a restart) must not crash the process; the next query reconnects.
  const pool = resilientPool({ connectionString: url, max: options.max ?? 5 });
  return {
    dialect: "postgres",
    async query<T>(sql: string, params?: readonly unknown[]) {
      return (await pool.query(numbered(sql), bind(params))).rows as T[];
    },
    async execute(sql, params) {
      return (await pool.query(numbered(sql), bind(params))).rowCount ?? 0;
    },
    transaction: groupCommit(async (list) => {
      const client = await pool.connect();
      const tag = `g${randomBytes(6).toString("hex")}`;
      try {
        await client.query(["BEGIN", "SET LOCAL synchronous_commit = off", ...mergeInserts(list).map((statement) => inline(client, statement, tag)), "COMMIT"].join(";\n"));
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw (error as { message?: string }).message === tag ? new GuardFailedError(guardReason(list)) : error;
      } finally {
        client.release();
      }
    }),
    async close() {
      await pool.end();
    },
  };
}

/** One statement with its values inlined; a guard becomes a block that raises `tag` when its query finds no row. */
function inline(client: pg.PoolClient, [sql, params, guard]: SqlStatement, tag: string): string {
  let index = 0;
  const text = sql.replace(/\?/g, () => literal(client, params[index++]));
  if (!guard) return text;
  return `DO $${tag}$ BEGIN PERFORM ${text.replace(/^\s*SELECT\s+/i, "")}; IF NOT FOUND THEN RAISE EXCEPTION '${tag}'; END IF; END $${tag}$`;
}

function literal(client: pg.PoolClient, value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return client.escapeLiteral(value.toISOString());
  if (typeof value === "string") return client.escapeLiteral(value);
  throw new TypeError(`a ${typeof value} cannot be a SQL value`);
}

/** Dates as UTC text, as Prisma stores them (a Date parameter would be sent in the process's time zone). */
function bind(params: readonly unknown[] = []): unknown[] {
  return params.map((value) => (value instanceof Date ? value.toISOString() : value));
}

function guardReason(list: ReadonlyArray<SqlStatement>): string {
  return list.find((statement) => statement[2])?.[2]?.reason ?? "a check of the transaction failed";
}

/** `?` placeholders as `$1, $2, …` (the SQL here never has a `?` inside a literal). */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}
