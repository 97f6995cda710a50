import pg from "pg";
import { groupCommit } from "./group-commit";
import { resilientPool } from "./postgres-pool";
import { isGuardRefusal, numbered, PostgresStatements } from "./postgres-statements";
import { GuardFailedError, type SqlDatabase, type SqlStatement } from "./sql-database";

/**
 * Postgres through pg. Queries (the queue's claims and heartbeats, reads)
 * go through a pool; transactions (the journal's steps) through one
 * connection of their own. A transaction runs with `synchronous_commit =
 * off`: a worker that dies loses nothing (the server has the commit); only
 * a crash of the database server itself can lose the last few
 * milliseconds, which the run then redoes from its journal. A durable one
 * (what a call not safe to repeat waits for) runs with it on.
 *
 * A transaction is one round trip: BEGIN, an EXECUTE of each statement
 * (prepared once per connection, ./postgres-statements) and COMMIT, as one
 * simple query. Transactions are group-committed, one at a time, so one
 * connection serves them all. Prepared statements live in the server's
 * session: a pooler in front of Postgres must keep sessions (PgBouncer's
 * session mode, not transaction mode).
 */
export function postgresDatabase(url: string, options: { max?: number } = {}): SqlDatabase {
  // A connection that loses its server (a restart) must not crash the process; the next query reconnects.
  const pool = resilientPool({ connectionString: url, max: options.max ?? 5 });
  const writer = resilientPool({ connectionString: url, max: 1 });
  const statements = new PostgresStatements();
  return {
    dialect: "postgres",
    async query<T>(sql: string, params?: readonly unknown[]) {
      return (await pool.query(numbered(sql), bind(params))).rows as T[];
    },
    async execute(sql, params) {
      return (await pool.query(numbered(sql), bind(params))).rowCount ?? 0;
    },
    transaction: groupCommit(async (list, options) => {
      const client = await writer.connect();
      let broken: Error | undefined;
      try {
        await client.query(["BEGIN", `SET LOCAL synchronous_commit = ${options?.durable ? "on" : "off"}`, ...(await statements.texts(client, list)), "COMMIT"].join(";\n"));
      } catch (error) {
        // A statement the server refused leaves the connection usable once rolled back; a lost connection is dropped.
        if (error instanceof pg.DatabaseError) await client.query("ROLLBACK").catch(() => undefined);
        else broken = error as Error;
        throw isGuardRefusal(error) ? new GuardFailedError(guardReason(list)) : error;
      } finally {
        client.release(broken);
      }
    }),
    async close() {
      await Promise.all([pool.end(), writer.end()]);
    },
  };
}

/** Dates as UTC text, as Prisma stores them (a Date parameter would be sent in the process's time zone). */
function bind(params: readonly unknown[] = []): unknown[] {
  return params.map((value) => (value instanceof Date ? value.toISOString() : value));
}

/** A group's transactions are committed again one by one when it fails, so the first guard is the one that refused. */
function guardReason(list: ReadonlyArray<SqlStatement>): string {
  return list.find((statement) => statement[2])?.[2]?.reason ?? "a check of the transaction failed";
}
