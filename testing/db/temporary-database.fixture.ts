import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createPrismaClient, type PrismaClient } from "../../lib/db/create-client";

const root = path.resolve(import.meta.dirname, "..", "..");
const migrationsFolder = path.join(root, "prisma", "migrations");

export interface TemporaryDatabase {
  url: string;
  client: PrismaClient;
  /** A folder beside the database for other test files (key files…). */
  folder: string;
  dispose(): Promise<void>;
}

/**
 * Test double: a fresh SQLite database in a temporary folder with every
 * migration applied by `prisma migrate deploy`, exactly as the app prepares
 * its own. The migrations run once per set of migrations (a template file
 * in the system's temporary folder, named by their hash); each database is
 * a copy of it. Dispose it in afterAll.
 */
export async function createTemporaryDatabase(): Promise<TemporaryDatabase> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-db-"));
  const file = path.join(folder, "test.db");
  await copyFile(await migratedTemplate(), file);
  const url = `file:${file}`;
  const client = createPrismaClient(url);
  return {
    url,
    client,
    folder,
    async dispose() {
      await client.$disconnect();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

let template: Promise<string> | undefined;

/**
 * The migrated template for the migrations as they are now. Test processes
 * running side by side may each migrate one; each renames its finished
 * file into place, so a reader only ever copies a whole one.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const file = path.join(os.tmpdir(), `switchboard-template-${await migrationsHash()}.db`);
    if (await exists(file)) return file;
    const folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-template-"));
    try {
      const building = path.join(folder, "template.db");
      await promisify(execFile)(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: `file:${building}`, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      });
      // The migrate process has ended, so its changes are in the main file (no write-ahead log is left beside it).
      if (await exists(`${building}-wal`)) throw new Error(`prisma migrate deploy left a write-ahead log beside ${building}`);
      // Same file system (both under the temporary folder): the rename is atomic.
      await rename(building, file);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    return file;
  })();
  return template;
}

/** Names the migrations as they are: each folder's name and its SQL. */
async function migrationsHash(): Promise<string> {
  const hash = createHash("sha256");
  for (const name of (await readdir(migrationsFolder)).sort()) {
    const sql = path.join(migrationsFolder, name, "migration.sql");
    if (!(await exists(sql))) continue;
    hash.update(name).update("\0").update(await readFile(sql)).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
