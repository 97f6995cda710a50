import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPostgres, type TestPostgres } from "../db/postgres/test-postgres";
import { postgresDatabase } from "../db/sql/postgres-database";
import { sqliteDatabase } from "../db/sql/sqlite-database";
import type { SqlDatabase } from "../db/sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";
import { writeDrillNodes } from "../../testing/queue/drill.fixture";
import { startWorkerProcess, type WorkerProcess } from "../../testing/queue/drill-workers.fixture";

// Schedules run in every worker process; the (trigger, tick time) row claimed with the run's
// insert lets exactly one of them start each tick's run.

const setup = await createTestPostgres();
const skipped = "skipped" in setup ? setup.skipped : null;
if (skipped) console.log(skipped);
const postgres = skipped ? null : (setup as TestPostgres);

const workers: WorkerProcess[] = [];
let folder: string;
let nodesDir: string;

/** A Start on an every-2-seconds schedule → End: each tick's run ends with its tick. */
function scheduledWorkflow(missed: "run-latest" | "skip") {
  return {
    version: 1,
    name: "Every two seconds",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { trigger: "schedule", cron: "*/2 * * * * *", timezone: "UTC", missed } },
      { id: "end", type: "end", position: { x: 300, y: 0 }, config: {} },
    ],
    edges: [{ id: "e1", kind: "signal", source: "start", sourceHandle: "tick", target: "end", targetHandle: "result" }],
  };
}

async function addWorkflow(db: SqlDatabase, id: string, missed: "run-latest" | "skip"): Promise<void> {
  const now = new Date();
  await db.execute(`INSERT INTO "Workflow" ("id", "name", "description", "document", "createdAt", "updatedAt") VALUES (?, ?, '', ?, ?, ?)`, [id, id, JSON.stringify(scheduledWorkflow(missed)), now, now]);
}

/** The ticks claimed for the workflow's schedule, and the schedule runs, oldest first. */
async function ticksAndRuns(db: SqlDatabase, workflowId: string) {
  const ticks = await db.query<{ tickAt: unknown; runId: string }>(`SELECT s."tickAt", s."runId" FROM "ScheduleTick" s JOIN "WorkflowTrigger" t ON t."id" = s."triggerId" WHERE t."workflowId" = ? ORDER BY s."tickAt"`, [workflowId]);
  const runs = await db.query<{ id: string; origin: string; status: string; outputs: string }>(`SELECT "id", "origin", "status", "outputs" FROM "Run" WHERE "workflowId" = ? AND "originKind" = 'schedule'`, [workflowId]);
  return { ticks: ticks.map((tick) => ({ at: new Date(tick.tickAt instanceof Date ? tick.tickAt : String(tick.tickAt)).getTime(), runId: tick.runId })), runs };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-schedules-"));
  nodesDir = await writeDrillNodes(folder);
});

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await Promise.all(workers.map((worker) => worker.exited));
  await postgres?.dispose();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe.skipIf(skipped !== null)("schedules on Postgres with 3 worker processes", () => {
  it("make exactly one run per tick over 10 ticks, also when one worker is SIGKILLed in between", async () => {
    const db = postgresDatabase(postgres!.url);
    try {
      await addWorkflow(db, "every-two", "skip");
      const env = { DATABASE_URL: postgres!.url, SWITCHBOARD_NODES_DIR: nodesDir, SWITCHBOARD_LEASE_SECONDS: "2", SWITCHBOARD_HEARTBEAT_MS: "300" };
      const started = [0, 1, 2].map(() => startWorkerProcess(env, ["--concurrency", "2"]));
      workers.push(...started);
      await Promise.all(started.map((worker) => worker.ready));
      await until(() => ticksAndRuns(db, "every-two"), ({ ticks }) => ticks.length >= 4, 60_000);
      started[1].kill("SIGKILL");
      await started[1].exited;
      const { ticks, runs } = await until(() => ticksAndRuns(db, "every-two"), ({ ticks }) => ticks.length >= 12, 60_000);
      expect(ticks.length).toBeGreaterThanOrEqual(12);
      // No tick twice, none skipped between the first and the last: one every 2 s.
      const gaps = ticks.slice(1).map((tick, index) => tick.at - ticks[index].at);
      expect(new Set(gaps)).toEqual(new Set([2000]));
      // One run per tick: the tick's own run, whose origin names the tick.
      expect(new Set(ticks.map((tick) => tick.runId)).size).toBe(ticks.length);
      const byId = new Map(runs.map((run) => [run.id, run]));
      for (const tick of ticks) expect(JSON.parse(byId.get(tick.runId)!.origin)).toMatchObject({ kind: "schedule", tick: new Date(tick.at).toISOString() });
      expect(runs.length).toBeGreaterThanOrEqual(ticks.length);
      const settled = await until(() => ticksAndRuns(db, "every-two"), (now) => now.runs.filter((run) => ticks.some((tick) => tick.runId === run.id)).every((run) => run.status === "completed"), 30_000);
      const first = settled.runs.find((run) => run.id === ticks[0].runId)!;
      expect(JSON.parse(first.outputs)).toEqual({ result: new Date(ticks[0].at).toISOString() });
    } finally {
      for (const worker of workers.splice(0)) worker.kill("SIGTERM");
      await db.close();
    }
  }, 180_000);
});

describe("a schedule in embedded mode (SQLite, the worker npm start runs in its process)", () => {
  let database: TemporaryDatabase;
  beforeAll(async () => {
    database = await createTemporaryDatabase();
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("runs the latest missed tick once after the process was killed, when set to run the latest", async () => {
    const db = sqliteDatabase(database.url);
    try {
      await addWorkflow(db, "latest", "run-latest");
      const env = { DATABASE_URL: database.url, SWITCHBOARD_NODES_DIR: nodesDir };
      const first = startWorkerProcess(env);
      workers.push(first);
      await first.ready;
      const before = await until(() => ticksAndRuns(db, "latest"), ({ ticks }) => ticks.length >= 2, 60_000);
      first.kill("SIGKILL");
      await first.exited;
      const killedAt = Date.now();
      // Down for more than the 10 s grace: the ticks of that time were missed while nothing ran.
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      const lastBefore = (await ticksAndRuns(db, "latest")).ticks.at(-1)!.at;
      const second = startWorkerProcess(env);
      workers.push(second);
      await second.ready;
      const after = await until(() => ticksAndRuns(db, "latest"), ({ ticks }) => ticks.filter((tick) => tick.at > lastBefore).length >= 4, 60_000);
      second.kill("SIGTERM");
      await second.exited;
      // Of the five or more ticks missed while it was down, one ran: the latest when it came back, said in its log.
      const [latest, ...onTime] = after.ticks.filter((tick) => tick.at > lastBefore);
      expect(latest.at - lastBefore).toBeGreaterThanOrEqual(10_000);
      expect(second.output()).toContain(`ran the latest, ${new Date(latest.at).toISOString()}, once`);
      // Then it is back on its schedule, one tick every 2 s. The tick right after the catch-up may be noticed after the
      // next one is due, while the restarted process still loads what a run needs on a loaded machine: the two are one
      // tick then (an on-time tick drops the earlier ones it passed, lib/triggers/schedule.ts), so that one gap may be 4 s.
      const gaps = onTime.map((tick, index) => tick.at - (index === 0 ? latest.at : onTime[index - 1].at));
      expect(gaps.length).toBeGreaterThanOrEqual(3);
      expect([2000, 4000]).toContain(gaps[0]);
      expect(gaps.slice(1)).toEqual(gaps.slice(1).map(() => 2000));
      expect(latest.at).toBeGreaterThan(killedAt + 8_000);
      expect(before.ticks.length).toBeGreaterThanOrEqual(2);
      expect(new Set(after.ticks.map((tick) => tick.runId)).size).toBe(after.ticks.length);
    } finally {
      await db.close();
    }
  }, 180_000);
});
