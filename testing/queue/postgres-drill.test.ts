import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseRunJournal } from "../../lib/db/run-journal-store";
import { postgresDatabase } from "../../lib/db/sql/postgres-database";
import { createTestPostgres, type TestPostgres } from "../../lib/db/postgres/test-postgres";
import type { SqlDatabase } from "../../lib/db/sql/sql-database";
import { checkRunDatabase } from "../../lib/db/sql/check-database";
import { recordAttentionChoice } from "../../lib/db/attention-choice";
import { countingServer, type CountingServer, drillWorkflow, writeDrillNodes } from "./drill.fixture";
import { enqueueRun, startWorkerProcess, waitForRuns, type WorkerProcess } from "./drill-workers.fixture";

const setup = await createTestPostgres();
const skipped = "skipped" in setup ? setup.skipped : null;
if (skipped) console.log(skipped);
const postgres = skipped ? null : (setup as TestPostgres);

let db: SqlDatabase;
let server: CountingServer;
let folder: string;
let env: Record<string, string>;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  if (!postgres) return;
  db = postgresDatabase(postgres.url);
  server = await countingServer({ maxDelayMs: 20 });
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-pg-drill-"));
  env = {
    DATABASE_URL: postgres.url,
    SWITCHBOARD_NODES_DIR: await writeDrillNodes(folder),
    SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: server.url,
    SWITCHBOARD_LEASE_SECONDS: "2",
    SWITCHBOARD_HEARTBEAT_MS: "300",
    SWITCHBOARD_POLL_MS: "100",
  };
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await Promise.all(workers.map((worker) => worker.exited));
  await db?.close();
  await server?.close();
  await postgres?.dispose();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** How many runs the drill queues: 60 in `npm test` (each run is a workflow of 7 nodes); `npm run drill` queues the full 300. */
const runCount = Number(process.env.SWITCHBOARD_DRILL_RUNS ?? 60);

describe.skipIf(skipped !== null)("Postgres: journal, queue and workers", () => {
  it("a step's rows and journal entry commit together, and a resumed journal finds them", async () => {
    const [runId] = [await enqueueRun(db, { version: 1, name: "x", nodes: [], edges: [] }, {})];
    const journal = await DatabaseRunJournal.open(db, runId);
    await journal.nodeStart({ runId, nodeRunId: "00000000-0000-5000-8000-000000000001", nodeId: "agent", nodeType: "t", parentToolCallId: null, inputs: {}, startedAt: new Date().toISOString() });
    await journal.record({ key: "agent#1/t1", kind: "model-turn", value: { turn: { text: "hi", toolCalls: [] } } });
    await journal.record(
      { key: "agent#1/t1/c0", kind: "tool-call", value: { outcome: { output: "42", isError: false } } },
      { toolCalls: [{ id: "00000000-0000-5000-8000-000000000002", runId, nodeRunId: "00000000-0000-5000-8000-000000000001", tool: "t", server: "s", caller: "agent", arguments: {}, result: 42, error: null, isError: false, tainted: false, startedAt: new Date().toISOString(), durationMs: 1, inputTokens: null, outputTokens: null, stepKey: "agent#1/t1/c0" }], taint: [] },
    );
    const reopened = await DatabaseRunJournal.open(db, runId);
    expect(reopened.lookup("agent#1/t1")?.value).toEqual({ turn: { text: "hi", toolCalls: [] } });
    expect(reopened.lookup("agent#1/t1/c0")?.value).toEqual({ outcome: { output: "42", isError: false } });
  });

  it("a DATABASE_URL that does not connect, and an unmigrated database: one line each", async () => {
    const wrong = new URL(postgres!.url);
    wrong.port = "1";
    expect(await checkRunDatabase(wrong.toString())).toMatch(/^cannot reach the database postgresql:\/\/.*ECONNREFUSED/);
    const bare = new URL(postgres!.url);
    bare.pathname = "/postgres";
    expect(await checkRunDatabase(bare.toString())).toMatch(/is not migrated .*npm run db:migrate/);
  });

  it(`3 workers, ${runCount} queued runs, one SIGKILLed mid-batch: all complete, nothing runs twice, its runs finish on the others`, async () => {
    const document = drillWorkflow(server.url);
    const runIds = new Map<string, string>();
    for (let index = 1; index <= runCount; index++) runIds.set(`pg-${index}`, await enqueueRun(db, document, { tag: `pg-${index}` }));
    const three = [0, 1, 2].map(() => startWorkerProcess(env, ["--concurrency", "4"]));
    workers.push(...three);
    await Promise.all(three.map((worker) => worker.ready));
    // Mid-batch: once some runs have finished, the first worker is killed with what it holds.
    const ids = [...runIds.values()];
    for (;;) {
      const [{ done }] = await db.query<{ done: string }>(`SELECT COUNT(*) AS "done" FROM "Run" WHERE "status" = 'completed'`);
      if (Number(done) >= runCount / 10) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const victim = (await db.query<{ workerId: string }>(`SELECT "workerId" FROM "Run" WHERE "status" = 'running' AND "workerId" IS NOT NULL LIMIT 1`))[0]?.workerId;
    const victimPid = Number(victim?.split(":")[1]);
    const killed = three.find((worker) => worker.child.pid !== undefined && worker.output().includes(`:${victimPid}:`)) ?? three[0];
    killed.kill("SIGKILL");
    await killed.exited;
    // Read after the kill: a run the victim finished between a read and the kill is not one it died holding.
    const heldByKilled = (await db.query<{ id: string }>(`SELECT "id" FROM "Run" WHERE "status" = 'running' AND "workerId" = ?`, [victim])).map((row) => row.id);

    const ended = await waitForRuns(db, ids, ["completed", "needs-attention"], 180_000);
    for (const [tag, id] of runIds) {
      if (ended.get(id) !== "needs-attention") continue;
      expect(server.counts.get(`charge:${tag}`) ?? 0).toBeLessThanOrEqual(1);
      await recordAttentionChoice(db, id, { action: "skip", result: { tag } });
    }
    await waitForRuns(db, ids, ["completed"], 60_000);
    for (const [tag] of runIds) for (const step of ["s1", "s2", "ledger"]) expect(server.counts.get(`${step}:${tag}`) ?? 0, `${step} of ${tag}`).toBeGreaterThanOrEqual(1);
    const notTwice = [...runIds.keys()].filter((tag) => (server.counts.get(`charge:${tag}`) ?? 0) > 1);
    expect(notTwice).toEqual([]);
    if (heldByKilled.length > 0) {
      const finishers = await db.query<{ workerId: string; resumeCount: number }>(`SELECT "workerId", "resumeCount" FROM "Run" WHERE "id" IN (${heldByKilled.map(() => "?").join(", ")})`, heldByKilled);
      for (const row of finishers) {
        expect(row.workerId).not.toBe(victim);
        expect(Number(row.resumeCount)).toBeGreaterThanOrEqual(1);
      }
    }
    for (const worker of three.filter((candidate) => candidate !== killed)) worker.kill("SIGTERM");
    const survivors = three.filter((candidate) => candidate !== killed);
    await Promise.all(survivors.map((worker) => worker.exited));
    // SIGTERM reaches the tsx wrapper too (its exit code is then 143); each worker itself stops cleanly.
    for (const worker of survivors) expect(worker.output()).toMatch(/SIGTERM: handing back \d+ run\(s\)[\s\S]*worker: stopped/);
  }, 300_000);
});
