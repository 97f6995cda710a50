import Database from "better-sqlite3";
import { groupCommit } from "./group-commit";
import { sqlitePragmas } from "./sqlite-pragmas";
import { sqliteWriter } from "./sqlite-writer";
import { GuardFailedError, type SqlDatabase, type SqlStatement } from "./sql-database";

/**
 * SQLite through better-sqlite3 with the pragmas every connection of the app
 * gets (./sqlite-pragmas: WAL, synchronous=NORMAL, busy_timeout): a commit
 * survives the process being killed, costs no fsync, and readers (the app,
 * Prisma) never block the writer. A durable transaction (TransactionOptions)
 * is committed with synchronous=FULL. Transactions are group-committed, on
 * a thread of their own (./sqlite-writer): the engine goes on meanwhile.
 */
export function sqliteDatabase(url: string): SqlDatabase {
  const file = url.startsWith("file:") ? url.slice("file:".length).split("?")[0] : url;
  const db = new Database(file);
  for (const pragma of sqlitePragmas) db.pragma(pragma);
  db.pragma("foreign_keys = ON");
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  // A plain loop: a run's batch binds tens of thousands of values, most of them strings and numbers passed as they are.
  const bind = (params: readonly unknown[] = []) => {
    const bound = new Array<unknown>(params.length);
    for (let index = 0; index < params.length; index++) {
      const value = params[index];
      bound[index] = typeof value === "boolean" ? (value ? 1 : 0) : typeof value === "object" && value instanceof Date ? value.toISOString().replace("Z", "+00:00") : value;
    }
    return bound;
  };
  // Transactions commit on a thread of their own (./sqlite-writer), except for an in-memory database, which a second connection would not share.
  const writer = file === ":memory:" || file === "" ? null : sqliteWriter(file, bind);
  const inTransaction = db.transaction((list: ReadonlyArray<SqlStatement>) => {
    for (const [sql, params, guard] of list) {
      const statement = prepared(sql);
      if (!guard) statement.run(...bind(params));
      else if (statement.get(...bind(params)) === undefined) throw new GuardFailedError(guard.reason);
    }
  });
  return {
    dialect: "sqlite",
    async query<T>(sql: string, params?: readonly unknown[]) {
      return prepared(sql).all(...bind(params)) as T[];
    },
    async execute(sql, params) {
      return prepared(sql).run(...bind(params)).changes;
    },
    // The group is what arrived since the last commit; the writer thread commits it while this thread goes on.
    transaction: groupCommit(async (list, options) => {
      // A thread that could not start (or stopped) leaves the commits to this one, as before it existed.
      if (writer && !writer.failed) return writer.commit(list, options?.durable === true);
      if (!options?.durable) return void inTransaction.immediate(list);
      // synchronous is per connection and read at commit: FULL syncs the WAL before the commit returns.
      db.pragma("synchronous = FULL");
      try {
        inTransaction.immediate(list);
      } finally {
        db.pragma("synchronous = NORMAL");
      }
    }),
    async close() {
      await writer?.close();
      db.close();
    },
  };
}
