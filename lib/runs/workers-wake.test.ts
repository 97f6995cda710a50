import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenForRuns } from "../db/postgres/run-wakes";
import { createTestPostgres, type TestPostgres } from "../db/postgres/test-postgres";
import { openSqlDatabase } from "../db/sql/open-database";
import type { SqlDatabase } from "../db/sql/sql-database";
import { createTemporaryDatabase } from "../../testing/db/temporary-database.fixture";
import { trivialWorkflow as trivial } from "../../testing/queue/drill.fixture";
import { waitForRuns } from "../../testing/queue/drill-workers.fixture";
import { wakeWorkers } from "./process-runs";
import { RunService } from "./run-service";
import { runNodeTypes } from "./run-environment";
import { startWorkerRuntime } from "./worker-runtime";

// A sleeping worker is woken by a queued run, not found on its poll: every worker here polls
// only every ten minutes, so a run it takes within the test's time was a wake-up's doing.

const root = path.resolve(import.meta.dirname, "..", "..");
const asleep = { leaseMs: 10_000, heartbeatMs: 500, pollMs: 600_000 };

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-wake-"));
  await writeFile(path.join(folder, "trivial.json"), JSON.stringify(trivial));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** `npm run workflow -- start FILE --json` in a process of its own; resolves to the run's id. */
function startFromCommandLine(databaseUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, "scripts", "cli.mjs"), "workflow", "start", path.join(folder, "trivial.json"), "--input", '{"tag":"from the command line"}', "--json"],
      { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl } },
      (error, stdout, stderr) => (error ? reject(new Error(`workflow start failed: ${stderr || error.message}`)) : resolve((JSON.parse(stdout) as { runId: string }).runId)),
    );
  });
}

const setup = await createTestPostgres();
const skipped = "skipped" in setup ? setup.skipped : null;
if (skipped) console.log(skipped);
const postgres = skipped ? null : (setup as TestPostgres);

describe.skipIf(!postgres)("a worker on Postgres", () => {
  let db: SqlDatabase;
  beforeAll(() => {
    db = openSqlDatabase(postgres!.url);
  });
  afterAll(async () => {
    await db?.close();
    await postgres?.dispose();
  });

  it("is woken by `workflow start` in another process (LISTEN/NOTIFY) and takes the run long before its poll", async () => {
    const wakes = listenForRuns(postgres!.url);
    await wakes.ready;
    expect(wakes.listening).toBe(true);
    const runtime = startWorkerRuntime({ databaseUrl: postgres!.url, timings: asleep, wakes, ticksSchedules: false, webhook: null });
    try {
      const runId = await startFromCommandLine(postgres!.url);
      const statuses = await waitForRuns(db, [runId], ["completed", "failed"], 120_000, 50);
      expect(statuses.get(runId)).toBe("completed");
      const [row] = await db.query<{ workerId: string }>(`SELECT "workerId" FROM "Run" WHERE "id" = ?`, [runId]);
      expect(row.workerId).toBe(runtime.worker.workerId);
    } finally {
      await runtime.stop();
    }
  }, 180_000);

  it("listens again after its connection is cut, and looks for runs queued meanwhile", async () => {
    const wakes = listenForRuns(postgres!.url);
    await wakes.ready;
    let woken = 0;
    wakes.subscribe(() => woken++);
    // Cut every other connection to this database: the listener's among them.
    await db.query(`SELECT pg_terminate_backend("pid") FROM pg_stat_activity WHERE "datname" = current_database() AND "pid" <> pg_backend_pid()`);
    await expect.poll(() => woken, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => wakes.listening, { timeout: 20_000 }).toBe(true);
    await wakes.close();
  }, 60_000);
});

describe("the embedded worker (SQLite)", () => {
  it("is woken in-process by a run queued by this process's run service", async () => {
    const database = await createTemporaryDatabase();
    const runtime = startWorkerRuntime({ databaseUrl: database.url, timings: asleep, ticksSchedules: false, webhook: null });
    const sqlite = openSqlDatabase(database.url);
    try {
      // The service a web process shares with its embedded worker: its wake is the in-process signal.
      const service = new RunService({ db: sqlite, nodeTypes: () => runNodeTypes(), wake: wakeWorkers });
      const started = await service.start({ workflowId: null, document: trivial, input: { tag: "in process" }, origin: { kind: "test" } });
      expect(started.ok).toBe(true);
      const runId = (started as { runId: string }).runId;
      const statuses = await waitForRuns(sqlite, [runId], ["completed", "failed"], 60_000, 20);
      expect(statuses.get(runId)).toBe("completed");
    } finally {
      await runtime.stop();
      await sqlite.close();
      await database.dispose();
    }
  }, 120_000);
});

