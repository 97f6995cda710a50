import { postgresDatabase } from "./postgres-database";
import type { SqlDatabase } from "./sql-database";
import { sqliteDatabase } from "./sqlite-database";

/** Whether a DATABASE_URL names Postgres (scale-out mode) rather than a SQLite file (embedded mode). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The journal's and the queue's database for a DATABASE_URL. */
export function openSqlDatabase(url: string): SqlDatabase {
  return isPostgresUrl(url) ? postgresDatabase(url) : sqliteDatabase(url);
}
