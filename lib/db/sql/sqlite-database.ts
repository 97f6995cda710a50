import Database from "better-sqlite3";
import type { SqlDatabase } from "./sql-database";

/**
 * SQLite through better-sqlite3 in WAL mode with synchronous=NORMAL: a
 * commit survives the process being killed (only a power cut can lose the
 * last commits), and a step's commit costs microseconds instead of a
 * journal-file fsync. Readers (the app, Prisma) never block the writer.
 * busy_timeout lets the app's Prisma client and this writer share the file.
 */
export function sqliteDatabase(url: string): SqlDatabase {
  const file = url.startsWith("file:") ? url.slice("file:".length).split("?")[0] : url;
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
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
  const bind = (params: readonly unknown[] = []) => params.map((value) => (typeof value === "boolean" ? (value ? 1 : 0) : value instanceof Date ? value.toISOString().replace("Z", "+00:00") : value));
  const inTransaction = db.transaction((list: ReadonlyArray<readonly [string, readonly unknown[]]>) => {
    for (const [sql, params] of list) prepared(sql).run(...bind(params));
  });
  return {
    dialect: "sqlite",
    async query<T>(sql: string, params?: readonly unknown[]) {
      return prepared(sql).all(...bind(params)) as T[];
    },
    async execute(sql, params) {
      return prepared(sql).run(...bind(params)).changes;
    },
    async transaction(list) {
      inTransaction(list);
    },
    async close() {
      db.close();
    },
  };
}
