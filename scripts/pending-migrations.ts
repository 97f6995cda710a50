/**
 * Which SQLite migrations (prisma/migrations) a database has not applied,
 * read from Prisma's own `_prisma_migrations` table with a plain read.
 *
 * Why `npm start` asks first: `prisma migrate deploy` opens SQLite with
 * `locking_mode=EXCLUSIVE`, which fails (SQLITE_BUSY, after a 10 s wait)
 * while any other process has the file open: `npm run worker` beside the
 * server, a script in `npm run workflow -- wait`, the kill drill reading the
 * runs. A server killed and started again under such a reader would not
 * start. So prepare-app runs Prisma only when there is something to apply.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** The migrations in `migrationsDir` (folders holding a migration.sql), in the order Prisma applies them. */
export function migrationNames(migrationsDir: string): string[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}

/**
 * The migrations of `migrationsDir` the database file has not applied: all of
 * them when the file or Prisma's table does not exist yet; a migration that
 * failed or was rolled back counts as not applied (Prisma then says what to do).
 */
export function pendingSqliteMigrations(file: string, migrationsDir: string): string[] {
  const names = migrationNames(migrationsDir);
  if (!existsSync(file)) return names;
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
    if (!table) return names;
    const rows = db.prepare(`SELECT "migration_name" AS name, "finished_at" AS finished, "rolled_back_at" AS rolledBack FROM "_prisma_migrations"`).all() as { name: string; finished: unknown; rolledBack: unknown }[];
    const applied = new Set(rows.filter((row) => row.finished !== null && row.rolledBack === null).map((row) => row.name));
    const failed = rows.filter((row) => row.finished === null && row.rolledBack === null).map((row) => row.name);
    return [...new Set([...failed, ...names.filter((name) => !applied.has(name))])];
  } finally {
    db.close();
  }
}
