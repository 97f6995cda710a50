import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAttentionChoice } from "../../lib/db/attention-choice";
import { sqliteDatabase } from "../../lib/db/sql/sqlite-database";
import type { SqlDatabase } from "../../lib/db/sql/sql-database";
import { createTemporaryDatabase, type TemporaryDatabase } from "../db/temporary-database.fixture";
import { countingServer, type CountingServer, drillWorkflow, writeDrillNodes } from "./drill.fixture";
import { enqueueRun, startWorkerProcess, waitForRuns, type WorkerProcess } from "./drill-workers.fixture";

let database: TemporaryDatabase;
let db: SqlDatabase;
let server: CountingServer;
let folder: string;
let env: Record<string, string>;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  database = await createTemporaryDatabase();
  db = sqliteDatabase(database.url);
  server = await countingServer({ maxDelayMs: 40 });
  folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-drill-"));
  env = {
    DATABASE_URL: database.url,
    SWITCHBOARD_NODES_DIR: await writeDrillNodes(folder),
    SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: server.url,
    SWITCHBOARD_LEASE_SECONDS: "1",
    SWITCHBOARD_HEARTBEAT_MS: "200",
    SWITCHBOARD_POLL_MS: "50",
  };
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await db?.close();
  await server?.close();
  await database?.dispose();
  await rm(folder, { recursive: true, force: true });
});

interface RunTrace {
  outputs: unknown;
  nodes: string[];
  calls: string[];
}

async function traceOf(runId: string, tag: string): Promise<RunTrace> {
  const neutral = (text: string) => text.split(tag).join("<tag>");
  const [run] = await db.query<{ outputs: string }>(`SELECT "outputs" FROM "Run" WHERE "id" = ?`, [runId]);
  const nodes = await db.query<{ nodeId: string; status: string }>(`SELECT "nodeId", "status" FROM "NodeRun" WHERE "runId" = ? ORDER BY "nodeId"`, [runId]);
  const calls = await db.query<{ tool: string; arguments: string; result: string }>(`SELECT "tool", "arguments", "result" FROM "ToolCall" WHERE "runId" = ? ORDER BY "sequence"`, [runId]);
  return {
    outputs: JSON.parse(neutral(run.outputs)),
    nodes: nodes.map((node) => `${node.nodeId}:${node.status}`),
    calls: calls.map((call) => neutral(`${call.tool} ${call.arguments} → ${call.result}`)),
  };
}

/** How many times a worker is SIGKILLed: 3 in `npm test` (each kill costs a worker start); `npm run drill` runs the full 20. */
const killCount = Number(process.env.SWITCHBOARD_DRILL_KILLS ?? 3);

describe("kill drill: workers SIGKILLed at random points", () => {
  it(`${killCount} kills: every run completes with the uninterrupted run's outputs and trace; nothing recorded runs twice; a charge caught mid-flight waits for a person and never runs twice`, async () => {
    const document = drillWorkflow(server.url);
    const baselineId = await enqueueRun(db, document, { tag: "baseline" });
    const first = startWorkerProcess(env, ["--concurrency", "2"]);
    workers.push(first);
    await first.ready;
    await waitForRuns(db, [baselineId], ["completed"], 30_000);
    first.kill("SIGKILL");
    await first.exited;
    const baseline = await traceOf(baselineId, "baseline");
    expect(baseline.nodes).toHaveLength(7);
    expect(baseline.calls).toEqual([expect.stringMatching(/^recordEntry /)]);

    const tags = Array.from({ length: 30 }, (_, index) => `tag-${index + 1}`);
    const runIds = new Map<string, string>();
    for (const tag of tags) runIds.set(tag, await enqueueRun(db, document, { tag }));

    let kills = 0;
    while (kills < killCount) {
      const worker = startWorkerProcess(env, ["--concurrency", "2"]);
      workers.push(worker);
      await worker.ready;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 350));
      worker.kill("SIGKILL");
      await worker.exited;
      kills += 1;
    }

    const last = startWorkerProcess(env, ["--concurrency", "4"]);
    workers.push(last);
    await last.ready;
    const ids = [...runIds.values()];
    const ended = await waitForRuns(db, ids, ["completed", "needs-attention"], 90_000);
    const waiting = [...runIds].filter(([, id]) => ended.get(id) === "needs-attention");
    for (const [tag, id] of waiting) {
      // Only the charge, the one call not safe to repeat, may wait for a person; it ran at most once.
      const [run] = await db.query<{ attention: string }>(`SELECT "attention" FROM "Run" WHERE "id" = ?`, [id]);
      expect(JSON.parse(run.attention)).toMatchObject({ nodeId: "charge" });
      expect(server.counts.get(`charge:${tag}`) ?? 0).toBeLessThanOrEqual(1);
      expect(await recordAttentionChoice(db, id, { action: "skip", result: { tag } })).toEqual({ ok: true });
    }
    await waitForRuns(db, ids, ["completed"], 60_000);
    last.kill("SIGTERM");
    await last.exited;
    // SIGTERM reaches the tsx wrapper too (its exit code is then 143); the worker itself stops cleanly.
    expect(last.output()).toMatch(/SIGTERM: handing back 0 run\(s\)/);

    let extra = 0;
    for (const [tag, id] of runIds) {
      expect(await traceOf(id, tag), tag).toEqual(baseline);
      const skipped = waiting.some(([waitingTag]) => waitingTag === tag);
      if (!skipped) expect(server.counts.get(`charge:${tag}`), `charge of ${tag}`).toBe(1);
      for (const step of ["s1", "s2", "ledger"]) {
        const count = server.counts.get(`${step}:${tag}`) ?? 0;
        expect(count, `${step} of ${tag}`).toBeGreaterThanOrEqual(1);
        extra += count - 1;
      }
    }
    // A safe step runs again only when a kill caught it mid-flight: at most one per run a killed worker held.
    expect(extra).toBeLessThanOrEqual(kills * 2);
    const [{ resumed }] = await db.query<{ resumed: number }>(`SELECT SUM("resumeCount") AS "resumed" FROM "Run"`);
    expect(Number(resumed)).toBeGreaterThan(0);
  }, 120_000 + killCount * 15_000);
});
