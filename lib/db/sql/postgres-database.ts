import pg from "pg";
import { groupCommit } from "./group-commit";
import { mergeInserts } from "./merge-inserts";
import { GuardFailedError, type SqlDatabase, type SqlStatement } from "./sql-database";

/**
 * Postgres through a pg pool. A step's transaction runs with
 * `synchronous_commit = off`: a worker that dies loses nothing (the server
 * has the commit); only a crash of the database server itself can lose the
 * last few milliseconds, which the run then redoes from its journal.
 * Transactions are group-committed, and consecutive rows for one table go
 * as one multi-row INSERT: one round trip instead of one per row.
 */
export function postgresDatabase(url: string, options: { max?: number } = {}): SqlDatabase {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 5, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server (a restart) must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  return {
    dialect: "postgres",
    async query<T>(sql: string, params?: readonly unknown[]) {
      return (await pool.query(numbered(sql), params as unknown[])).rows as T[];
    },
    async execute(sql, params) {
      return (await pool.query(numbered(sql), params as unknown[])).rowCount ?? 0;
    },
    transaction: groupCommit(async (list) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("SET LOCAL synchronous_commit = off");
        for (const statement of mergeInserts(list)) await run(client, statement);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    }),
    async close() {
      await pool.end();
    },
  };
}

async function run(client: pg.PoolClient, [sql, params, guard]: SqlStatement): Promise<void> {
  const result = await client.query(numbered(sql), params as unknown[]);
  if (guard && result.rows.length === 0) throw new GuardFailedError(guard.reason);
}

/** `?` placeholders as `$1, $2, …` (the SQL here never has a `?` inside a literal). */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}
