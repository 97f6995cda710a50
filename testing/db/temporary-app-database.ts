import { afterAll, beforeAll } from "vitest";
import type { PrismaClient } from "../../lib/db/create-client";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../lib/db/temporary-database";

/**
 * TEST SUPPORT: a temporary database (see createTemporaryDatabase) that the
 * app's shared client opens too, for the tests of one file. Before all of
 * them it is created and DATABASE_URL points at it (lib/db/client.ts reads
 * it on first use); after all, the shared client is closed, DATABASE_URL is
 * restored and the database disposed. Call it at the top of a test file and
 * read `client` and `url` only in tests and hooks: they exist once the
 * database does.
 *
 * @example
 * const database = temporaryAppDatabase();
 * it("…", async () => { await database.client.run.count(); });
 */
export function temporaryAppDatabase(): Pick<TemporaryDatabase, "client" | "url"> {
  let database: TemporaryDatabase | undefined;
  const previousUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    // A temporary SQLite file with the real migrations applied by `prisma migrate deploy`.
    database = await createTemporaryDatabase();
    process.env.DATABASE_URL = database.url;
  }, 60_000);
  afterAll(async () => {
    // The app's shared client (lib/db/client.ts keeps it on globalThis) was opened on the temporary file.
    const holder = globalThis as { switchboardPrisma?: PrismaClient };
    await holder.switchboardPrisma?.$disconnect();
    delete holder.switchboardPrisma;
    // …and so was the run service's database (lib/runs/process-runs.ts).
    await (await import("../../lib/runs/process-runs")).closeProcessRuns();
    if (previousUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previousUrl;
    await database?.dispose();
    // Importing the run service's module (its first import in a file that never used it) takes seconds on a loaded machine.
  }, 60_000);
  const created = () => {
    if (!database) throw new Error("the temporary database is created in beforeAll: read it in a test or a hook");
    return database;
  };
  return {
    get client() {
      return created().client;
    },
    get url() {
      return created().url;
    },
  };
}
