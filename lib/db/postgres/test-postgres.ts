import { randomUUID } from "node:crypto";
import pg from "pg";
import { applyPostgresMigrations } from "./apply-migrations";

/** Where the Postgres suite runs: SWITCHBOARD_TEST_POSTGRES_URL, default the test server of this project's machines. */
export const testPostgresUrl = process.env.SWITCHBOARD_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export interface TestPostgres {
  url: string;
  dispose(): Promise<void>;
}

/**
 * TEST DOUBLE setup: a fresh, migrated database `<name of the URL's database>_<random>` on the
 * test server, dropped by dispose; or, when no server answers, the one-line reason the suite is
 * skipped (printed once by the caller).
 */
export async function createTestPostgres(): Promise<TestPostgres | { skipped: string }> {
  const admin = new pg.Client({ connectionString: testPostgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    return { skipped: `Postgres suite skipped: no server at ${testPostgresUrl} (${(error as Error).message || (error as { code?: string }).code}); set SWITCHBOARD_TEST_POSTGRES_URL or start one (.ci/run does)` };
  }
  const base = new URL(testPostgresUrl);
  const name = `${base.pathname.slice(1) || "test"}_${randomUUID().slice(0, 8)}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  base.pathname = `/${name}`;
  const url = base.toString();
  await applyPostgresMigrations(url);
  return {
    url,
    async dispose() {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    },
  };
}
