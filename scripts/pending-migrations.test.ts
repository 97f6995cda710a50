import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTemporaryDatabase, type TemporaryDatabase } from "../testing/db/temporary-database.fixture";
import { migrationNames, pendingSqliteMigrations } from "./pending-migrations";

const root = path.resolve(import.meta.dirname, "..");
const migrationsDir = path.join(root, "prisma", "migrations");
let database: TemporaryDatabase;
let file: string;

beforeAll(async () => {
  database = await createTemporaryDatabase();
  file = database.url.slice("file:".length);
}, 60_000);

afterAll(async () => {
  await database?.dispose();
});

describe("pendingSqliteMigrations", () => {
  it("is empty for a database prisma migrate deploy migrated, and lists every migration for a file not there yet", () => {
    expect(migrationNames(migrationsDir).length).toBeGreaterThan(5);
    expect(pendingSqliteMigrations(file, migrationsDir)).toEqual([]);
    expect(pendingSqliteMigrations(path.join(database.folder, "absent.db"), migrationsDir)).toEqual(migrationNames(migrationsDir));
  });

  it("lists a migration not applied, a failed one and one rolled back; every one for a database without Prisma's table", () => {
    const [first, second, third] = migrationNames(migrationsDir);
    const db = new Database(file);
    try {
      db.prepare(`DELETE FROM "_prisma_migrations" WHERE "migration_name" = ?`).run(first);
      db.prepare(`UPDATE "_prisma_migrations" SET "finished_at" = NULL WHERE "migration_name" = ?`).run(second);
      db.prepare(`UPDATE "_prisma_migrations" SET "rolled_back_at" = "finished_at" WHERE "migration_name" = ?`).run(third);
      expect(pendingSqliteMigrations(file, migrationsDir).sort()).toEqual([first, second, third].sort());
    } finally {
      db.close();
    }
    const bare = path.join(database.folder, "bare.db");
    new Database(bare).close();
    expect(pendingSqliteMigrations(bare, migrationsDir)).toEqual(migrationNames(migrationsDir));
  });
});

describe("prepare-app with the database open in another process", () => {
  it("starts: an up-to-date database is not handed to prisma migrate deploy, whose exclusive lock would fail", async () => {
    const fresh = await createTemporaryDatabase();
    // A reader that keeps the file open in WAL mode, as `npm run workflow -- wait` or a worker does.
    const reader = new Database(fresh.url.slice("file:".length));
    reader.pragma("journal_mode = WAL");
    reader.prepare(`SELECT COUNT(*) FROM "Run"`).get();
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/prepare-app.ts"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: fresh.url, SWITCHBOARD_OWNER_EMAIL: "owner@example.com", SWITCHBOARD_OWNER_PASSWORD: "a-long-enough-password" },
      });
      expect(stdout).toContain("prepare: migrations: up to date");
      expect(stdout).toContain("accounts: created the owner owner@example.com");
    } finally {
      reader.close();
      await fresh.dispose();
    }
  }, 60_000);

  it("says in one line what to do when migrations are due and another process holds the file", async () => {
    const fresh = await createTemporaryDatabase();
    const freshFile = fresh.url.slice("file:".length);
    const [last] = migrationNames(migrationsDir).slice(-1);
    const reader = new Database(freshFile);
    reader.pragma("journal_mode = WAL");
    reader.prepare(`DELETE FROM "_prisma_migrations" WHERE "migration_name" = ?`).run(last);
    try {
      const failure = await promisify(execFile)(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/prepare-app.ts"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: fresh.url },
      }).then(() => null, (error: { code: number; stderr: string }) => error);
      expect(failure?.code).toBe(1);
      expect(failure?.stderr.trim()).toBe(
        "prepare: migrations failed (prisma migrate deploy): another process has the database open (a worker, `npm run workflow -- wait`, a database browser…), and migrating needs it alone: stop it, then start again",
      );
    } finally {
      reader.close();
      await fresh.dispose();
    }
  }, 60_000);
});
