import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createPrismaClient, type PrismaClient } from "./create-client";

const root = path.resolve(import.meta.dirname, "..", "..");

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
 * its own. Dispose it in afterAll.
 */
export async function createTemporaryDatabase(): Promise<TemporaryDatabase> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-db-"));
  const url = `file:${path.join(folder, "test.db")}`;
  await promisify(execFile)(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
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
