/**
 * Gets the database ready for the app: creates its folder, applies the
 * migrations (`prisma migrate deploy`) and seeds the demo workflow into an
 * empty database. One line per step; on an expected failure, one clear line
 * and exit code 1 — never a stack trace.
 *
 *   npx tsx scripts/prepare-app.ts
 *   SWITCHBOARD_RESET_DATABASE=true npx tsx scripts/prepare-app.ts   # start from an empty database
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createPrismaClient, demoWorkflow, migrateAllowedAgents, databaseUrl, ensureDatabaseFolder, isPostgresUrl, PrismaAccounts } from "../lib/db";
import { applyPostgresMigrations } from "../lib/db/postgres/apply-migrations";
import { closeProcessRuns, runService } from "../lib/runs";
import { pendingSqliteMigrations } from "./pending-migrations";
import { OwnerSetupError, prepareOwner } from "../lib/auth/owner-setup";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** An expected failure: its message is all the user needs to see. */
export class PrepareError extends Error {
  override name = "PrepareError";
}

/** Where the steps are said: standard output for `npm start`; a command whose output is its answer says them on standard error. */
let say = (line: string) => console.log(line);

function step(message: string): void {
  say(`prepare: ${message}`);
}

/** The database file of a `file:` URL, resolved against the project root. */
function databaseFile(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const file = url.slice("file:".length).split("?")[0];
  return file === ":memory:" ? null : path.resolve(root, file);
}

function resetDatabase(url: string): void {
  const file = databaseFile(url);
  if (!file) throw new PrepareError(`SWITCHBOARD_RESET_DATABASE=true only works with a file: DATABASE_URL (got ${url}).`);
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  step(`reset: deleted ${path.relative(root, file)}`);
}

/**
 * Runs `npx prisma migrate deploy`, quiet unless it fails, when the database
 * has migrations to apply: Prisma needs the file to itself (an exclusive
 * lock), so with nothing to apply it is not run (see ./pending-migrations).
 */
async function applyMigrations(url: string): Promise<void> {
  const file = databaseFile(url);
  if (file) {
    let pending: string[];
    try {
      pending = pendingSqliteMigrations(file, path.join(root, "prisma", "migrations"));
    } catch (error) {
      throw new PrepareError(`cannot read the migrations ${path.relative(root, file)} has applied: ${lastLine(error)}`);
    }
    if (pending.length === 0) return step("migrations: up to date");
  }
  const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const child = spawn("npx", ["--no", "prisma", "migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    child.on("error", (error) => reject(new PrepareError(`could not run prisma (${error.message}); run \`npm install\` first.`)));
    child.on("close", (code) => resolve({ code, text }));
  });
  if (output.code !== 0) {
    const busy = /SocketTimeout|SQLITE_BUSY|database is locked/.test(output.text);
    const reason = busy ? "another process has the database open (a worker, `npm run workflow -- wait`, a database browser…), and migrating needs it alone: stop it, then start again" : ((await probeDatabase(url)) ?? prismaReason(output.text));
    throw new PrepareError(`migrations failed (prisma migrate deploy): ${reason}`);
  }
  const applied = output.text.match(/following migration\(s\) have been applied/) ? "applied new migrations" : "up to date";
  step(`migrations: ${applied}`);
}

/**
 * The schema engine's errors can be opaque ("External error id#0"); asking
 * SQLite directly names problems such as a file that is not a database.
 */
async function probeDatabase(url: string): Promise<string | null> {
  const prisma = createPrismaClient(url);
  try {
    await prisma.$queryRawUnsafe("PRAGMA schema_version");
    return null;
  } catch (error) {
    return `${databaseFile(url) ? path.relative(root, databaseFile(url)!) : url}: ${lastLine(error)}`;
  } finally {
    await prisma.$disconnect().catch(() => undefined);
  }
}

function lastLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").map((line) => line.trim()).filter(Boolean).at(-1) ?? message;
}

/** Prisma's own error line (e.g. `Error: P3009 ...`), without its banner. */
function prismaReason(text: string): string {
  const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
  const start = lines.findIndex((line) => /^Error\b/.test(line));
  const reason = (start >= 0 ? lines.slice(start, start + 3) : lines.slice(-3)).join(" ");
  return reason || "prisma migrate deploy exited with an error and said nothing";
}

async function seedDemo(url: string): Promise<void> {
  const prisma = createPrismaClient(url);
  try {
    const count = await prisma.workflow.count();
    if (count > 0) {
      step(`seed: ${count} workflow${count === 1 ? "" : "s"} present, nothing to add`);
      return;
    }
    await prisma.workflow.create({
      data: {
        id: demoWorkflow.id,
        name: demoWorkflow.name,
        description: demoWorkflow.description,
        document: JSON.stringify(demoWorkflow.document),
      },
    });
    step(`seed: added "${demoWorkflow.name}"`);
  } catch (error) {
    throw new PrepareError(`seeding failed: ${lastLine(error)}`);
  } finally {
    await prisma.$disconnect();
  }
}

/** The retired allowedAgents of registry servers become grants of the workflows that used them (once). */
async function moveAllowedAgentsIntoGrants(url: string): Promise<void> {
  const prisma = createPrismaClient(url);
  try {
    const moved = await migrateAllowedAgents(prisma);
    if (moved.servers > 0) step(`grants: moved the allowedAgents of ${moved.servers} server${moved.servers === 1 ? "" : "s"} into ${moved.grants} workflow grant${moved.grants === 1 ? "" : "s"}`);
  } catch (error) {
    throw new PrepareError(`could not move allowedAgents into grants: ${lastLine(error)}`);
  } finally {
    await prisma.$disconnect();
  }
}

/** Runs left "running" by a killed server are queued again: the worker resumes them from their journal. */
async function endInterruptedRuns(url: string): Promise<void> {
  try {
    const { queued, failed, leftToLiveWorkers } = await runService().resumeInterrupted();
    if (queued > 0) step(`runs: ${queued} run${queued === 1 ? "" : "s"} left running by a stopped server queued to resume`);
    if (leftToLiveWorkers > 0) step(`runs: ${leftToLiveWorkers} run${leftToLiveWorkers === 1 ? "" : "s"} held by a worker still running left to it`);
    if (failed > 0) step(`runs: ${failed} outside-host call${failed === 1 ? "" : "s"} left running by a stopped server marked failed`);
  } catch (error) {
    throw new PrepareError(`could not queue interrupted runs again: ${lastLine(error)}`);
  } finally {
    await closeProcessRuns();
  }
}

/** The Postgres migrations (prisma/postgres/migrations), applied by our own small runner. */
async function applyPostgresMigrationsOrExplain(url: string): Promise<void> {
  try {
    const applied = await applyPostgresMigrations(url);
    step(`migrations: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "3D000" || code === "28P01" ? `cannot reach ${url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@")} (${code}: ${lastLine(error)})` : lastLine(error);
    throw new PrepareError(`migrations failed: ${reason}`);
  }
}

/** The first owner: from SWITCHBOARD_OWNER_EMAIL/PASSWORD, or a one-time set-up link in this log. */
async function prepareAccounts(url: string): Promise<void> {
  const prisma = createPrismaClient(url);
  try {
    console.log(await prepareOwner(new PrismaAccounts(prisma), { baseUrl: `http://127.0.0.1:${process.env.PORT ?? "3000"}` }));
  } catch (error) {
    throw new PrepareError(error instanceof OwnerSetupError ? error.message : `could not prepare the owner account: ${lastLine(error)}`);
  } finally {
    await prisma.$disconnect();
  }
}

/** The run tables, migrated: `prisma migrate deploy` on SQLite (its folder made first), our runner on Postgres. */
export async function migrateDatabase(url: string, log: (line: string) => void = say): Promise<void> {
  say = log;
  ensureDatabaseFolder(url);
  if (isPostgresUrl(url)) await applyPostgresMigrationsOrExplain(url);
  else await applyMigrations(url);
}

/** Everything the app needs before `next start`. */
export async function prepareApp(): Promise<void> {
  const url = databaseUrl();
  step(`database: ${url}`);
  if (process.env.SWITCHBOARD_RESET_DATABASE === "true") resetDatabase(url);
  try {
    ensureDatabaseFolder(url);
  } catch (error) {
    throw new PrepareError(`cannot create the database's folder for ${url}: ${lastLine(error)}`);
  }
  if (isPostgresUrl(url)) {
    // Scale-out mode: other processes may be running runs; a dead worker's runs are taken over when its leases expire.
    await applyPostgresMigrationsOrExplain(url);
  } else {
    await applyMigrations(url);
    await endInterruptedRuns(url);
  }
  await moveAllowedAgentsIntoGrants(url);
  await seedDemo(url);
  await prepareAccounts(url);
}

/** Runs prepareApp and turns an expected failure into one line and exit 1. */
export async function prepareAppOrExit(): Promise<void> {
  try {
    await prepareApp();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`prepare: ${message}`);
    if (!(error instanceof PrepareError) && process.env.SWITCHBOARD_DEBUG) console.error(error);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  // Relative file: URLs are read from the working directory, by Prisma and by us alike.
  process.chdir(root);
  await prepareAppOrExit();
}
