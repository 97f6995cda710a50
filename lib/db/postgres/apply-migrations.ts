import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..", "..", "..");
export const postgresMigrationsFolder = path.join(root, "prisma", "postgres", "migrations");

/**
 * Applies the Postgres migrations (prisma/postgres/migrations/<name>/
 * migration.sql, in name order) that this database has not had yet, each in
 * its own transaction, and records them in `_switchboard_migrations`.
 * `prisma migrate deploy` cannot do this with the JavaScript engine on
 * Postgres (see docs/runs.md), hence this small runner. Returns the names
 * applied. An advisory lock keeps two processes from migrating at once.
 */
export async function applyPostgresMigrations(url: string, folder: string = postgresMigrationsFolder): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(727274)");
    await client.query(`CREATE TABLE IF NOT EXISTS "_switchboard_migrations" ("name" TEXT PRIMARY KEY, "appliedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
    const done = new Set((await client.query<{ name: string }>(`SELECT "name" FROM "_switchboard_migrations"`)).rows.map((row) => row.name));
    const names = (await readdir(folder, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    const applied: string[] = [];
    for (const name of names.filter((candidate) => !done.has(candidate))) {
      const sql = await readFile(path.join(folder, name, "migration.sql"), "utf8");
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(`INSERT INTO "_switchboard_migrations" ("name") VALUES ($1)`, [name]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(name);
    }
    return applied;
  } finally {
    await client.query("SELECT pg_advisory_unlock(727274)").catch(() => undefined);
    await client.end();
  }
}
