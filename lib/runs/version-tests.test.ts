import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorkflow } from "../db/demo-workflow";
import { openSqlDatabase } from "../db/sql/open-database";
import type { SqlDatabase } from "../db/sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";
import { runNodeTypes } from "./run-environment";
import { RunService } from "./run-service";
import { keepRunAsTest } from "./test-cases";
import { interruptedVersionTestsSummary, sweepInterruptedVersionTests, versionItemOf } from "./version-tests";
import type { WorkflowCases } from "./workflow-cases";
import { startWorkerRuntime } from "./worker-runtime";

let database: TemporaryDatabase;
let sql: SqlDatabase;
let service: RunService;
let found: WorkflowCases;

const now = new Date("2026-12-02T12:00:00.000Z");
const hourAgo = new Date(now.getTime() - 3_600_000);
const minuteAgo = new Date(now.getTime() - 60_000);
/** A process of this host that no longer runs (pids never reach this). */
const goneProcess = `${hostname()}:2147483646`;
const thisProcess = `${hostname()}:${process.pid}`;

beforeAll(async () => {
  database = await createTemporaryDatabase();
  await database.client.workflow.create({ data: { id: demoWorkflow.id, name: demoWorkflow.name, description: demoWorkflow.description, document: JSON.stringify(demoWorkflow.document) } });
  sql = openSqlDatabase(database.url);
  service = new RunService({ db: sql, nodeTypes: () => runNodeTypes(), wake: () => undefined });
  // The demo's case, pinned from a run of it.
  const started = await service.start({ workflowId: "demo", document: demoWorkflow.document, input: { question: "How many miles is 5 km?" }, origin: { kind: "cli" } });
  if (!started.ok) throw new Error(started.error);
  const worker = startWorkerRuntime({ databaseUrl: database.url, onlyRuns: [started.runId], ticksSchedules: false, webhook: null, timings: { leaseMs: 10_000, heartbeatMs: 500, pollMs: 20 } });
  try {
    expect((await service.wait(started.runId, { timeoutMs: 60_000 }))?.status).toBe("completed");
  } finally {
    await worker.stop();
  }
  const kept = await keepRunAsTest(database.client, started.runId, { name: "5 km in miles", write: false });
  found = { cases: [{ file: kept.file, testCase: kept.testCase }], problems: [] };
}, 120_000);
afterAll(async () => {
  await sql?.close();
  await database?.dispose();
});

/** A version as a killed process left it: marked running, its result never stored. */
async function leftRunning(number: number, test: { startedAt: Date | null; holder: string | null; attempts: number }): Promise<void> {
  await database.client.workflowVersion.create({
    data: { id: `demo-v${number}`, workflowId: "demo", number, document: JSON.stringify(demoWorkflow.document), note: `version ${number}`, testStatus: "running", testStartedAt: test.startedAt, testHolder: test.holder, testAttempts: test.attempts },
  });
}

/** The versions list, as the canvas's Versions dialog gets it. */
async function versionsList() {
  const rows = await database.client.workflowVersion.findMany({ where: { workflowId: "demo" }, orderBy: { number: "asc" } });
  return rows.map(versionItemOf);
}

describe("the sweep of version tests a stopped process left running", () => {
  it("runs the cases again where the process is gone or the lease has passed, marks a second interruption, and leaves a live test alone", async () => {
    await leftRunning(1, { startedAt: minuteAgo, holder: goneProcess, attempts: 1 }); // killed a minute ago: its process is gone
    await leftRunning(2, { startedAt: hourAgo, holder: "another-host:42", attempts: 1 }); // another host's, past the lease
    await leftRunning(3, { startedAt: minuteAgo, holder: thisProcess, attempts: 1 }); // this process runs it now
    await leftRunning(4, { startedAt: minuteAgo, holder: goneProcess, attempts: 2 }); // already run again once, stopped again
    await leftRunning(5, { startedAt: null, holder: null, attempts: 0 }); // saved before tests had a start time: by its save time (long ago)

    const sweep = await sweepInterruptedVersionTests(database.client, { service, databaseUrl: database.url, now, found: async () => found, log: () => undefined });

    expect(sweep.rerun.map((version) => version.number).sort()).toEqual([1, 2, 5]);
    expect(sweep.interrupted).toEqual([{ workflowId: "demo", number: 4 }]);
    const list = await versionsList();
    expect(list.map((version) => [version.number, version.tests?.status])).toEqual([
      [1, "passed"],
      [2, "passed"],
      [3, "running"],
      [4, "interrupted"],
      [5, "passed"],
    ]);
    expect(list[0].tests).toMatchObject({ passed: 1, failed: 0 });
    expect(list[3].tests?.summary).toBe(interruptedVersionTestsSummary);
    const rows = await database.client.workflowVersion.findMany({ where: { workflowId: "demo" }, orderBy: { number: "asc" }, select: { testAttempts: true, testHolder: true } });
    // Each re-run counts as a start; a finished test names no process.
    expect(rows.map((row) => row.testAttempts)).toEqual([2, 2, 1, 2, 1]);
    expect(rows.map((row) => row.testHolder)).toEqual([null, null, thisProcess, null, null]);

    // A second sweep finds nothing left to take: the live one is still its process's.
    const again = await sweepInterruptedVersionTests(database.client, { service, databaseUrl: database.url, now, found: async () => found, log: () => undefined });
    expect(again).toEqual({ rerun: [], interrupted: [] });
  }, 180_000);
});
