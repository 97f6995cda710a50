/**
 * The queue's figures (the write path's are in bench/run-writes.bench.ts):
 * - queue latency, enqueue → first step, p50 / p99 (embedded SQLite; Postgres
 *   when SWITCHBOARD_TEST_POSTGRES_URL answers);
 * - runs per second with 1 vs 3 workers on tool calls that take 50 ms
 *   (target: 3 workers ≥ 2.2x one).
 *
 *   npx tsx bench/durable-runs.bench.ts
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { DatabaseRunJournal } from "../lib/db/run-journal-store";
import { DatabaseRunQueue } from "../lib/db/database-run-queue";
import { createTemporaryDatabase } from "../testing/db/temporary-database.fixture";
import { createTestPostgres } from "../lib/db/postgres/test-postgres";
import { postgresDatabase } from "../lib/db/sql/postgres-database";
import { sqliteDatabase } from "../lib/db/sql/sqlite-database";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { scriptedModel } from "../testing/ai/scripted-model.fixture";
import { runWorkflow, type EngineEnvironment } from "../lib/engine";
import { createLocalEnvironment } from "../lib/runs/local-environment";
import { chainDocument, writeToolLayerNodes } from "../testing/engine/tool-layers.fixture";
import { parseWorkflow } from "../lib/graph";
import { RunWorker } from "../lib/queue/run-worker";
import { CustomToolRegistry } from "../lib/tools/custom-tool-registry";
import { defineTool } from "../lib/tools/define-tool";

const nodes = await writeToolLayerNodes();
const database = await createTemporaryDatabase();
const sqlite = sqliteDatabase(database.url);

const echo = defineTool({ name: "echo", description: "Echo a text.", parameters: z.object({ text: z.string() }), idempotent: true, execute: ({ text }) => text });
const slow = defineTool({ name: "slow", description: "Takes 50 ms.", parameters: z.object({}), idempotent: true, execute: () => new Promise((resolve) => setTimeout(() => resolve("ok"), 50)) });

const environments = new Map<string, Promise<EngineEnvironment>>();
/** One environment per script (node types are read once); each agent node run gets a fresh scripted model. */
function environment(script: Parameters<typeof scriptedModel>[0]): Promise<EngineEnvironment> {
  const key = JSON.stringify(script);
  if (!environments.has(key)) environments.set(key, createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => scriptedModel(script), customTools: new CustomToolRegistry([echo, slow]) } }));
  return environments.get(key)!;
}

const document = (tool: string, maxTurns: number) => parseWorkflowOrThrow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "custom", name: tool }], config: { maxTurns } }]));

function parseWorkflowOrThrow(input: unknown) {
  const parsed = parseWorkflow(input);
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return parsed.workflow;
}

async function insertRun(db: SqlDatabase, workflow: unknown, status: string): Promise<string> {
  const runId = randomUUID();
  await db.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, ?, ?, ?, '{}', ?, 0)`, [runId, JSON.stringify(workflow), JSON.stringify({ question: "go" }), status, new Date()]);
  return runId;
}

// The write path during runs, and alone: bench/run-writes.bench.ts.
// Queue latency and workers, on one database.
async function queueFigures(label: string, db: SqlDatabase) {
  const timings = { leaseMs: 10_000, heartbeatMs: 500, pollMs: 200 };
  const startWorkers = (count: number, env: () => Promise<EngineEnvironment>) =>
    Array.from({ length: count }, () => {
      const queue = new DatabaseRunQueue(db, timings);
      const worker = new RunWorker({
        queue,
        timings,
        concurrency: 1,
        execute: async (claimed, signals) => {
          const [row] = await db.query<{ document: string }>(`SELECT "document" FROM "Run" WHERE "id" = ?`, [claimed.runId]);
          const store = await DatabaseRunJournal.open(db, claimed.runId);
          await runWorkflow({ runId: claimed.runId, workflowId: null, workflow: parseWorkflowOrThrow(JSON.parse(row.document)), input: { question: "go" }, sink: store, journal: store, env: await env(), signal: signals.cancel, stopSignal: signals.stop });
          return "finished";
        },
      });
      worker.start();
      return { worker, queue };
    });
  const waitDone = async (ids: string[]) => {
    for (;;) {
      const [{ left }] = await db.query<{ left: number }>(`SELECT COUNT(*) AS "left" FROM "Run" WHERE "status" NOT IN ('completed', 'failed') AND "id" IN (${ids.map(() => "?").join(", ")})`, ids);
      if (Number(left) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  // Latency: one worker, runs enqueued one at a time; enqueue → first node run's start.
  const quick = document("echo", 2);
  const [one] = startWorkers(1, () => environment([{ text: "done" }]));
  const latencies: number[] = [];
  for (let index = 0; index < 40; index++) {
    const enqueuedAt = Date.now();
    const id = await insertRun(db, quick, "queued");
    one.queue.wake();
    await waitDone([id]);
    const [first] = await db.query<{ startedAt: unknown }>(`SELECT MIN("startedAt") AS "startedAt" FROM "NodeRun" WHERE "runId" = ?`, [id]);
    latencies.push(new Date(String(first.startedAt instanceof Date ? first.startedAt.toISOString() : first.startedAt)).getTime() - enqueuedAt);
  }
  await one.worker.stop();
  latencies.sort((a, b) => a - b);
  console.log(`${label}: queue latency enqueue → first step: p50 ${latencies[Math.floor(latencies.length * 0.5)]} ms, p99 ${latencies[Math.floor(latencies.length * 0.99)]} ms (polling every ${timings.pollMs} ms; in-process wake-ups)`);
  // Throughput: 1 vs 3 workers, each run one 50 ms tool call.
  const slowRun = document("slow", 3);
  const slowScript = () => environment([{ toolCalls: [{ name: "slow", arguments: {} }] }, { text: "done" }]);
  const rate = async (count: number) => {
    const ids = await Promise.all(Array.from({ length: 30 }, () => insertRun(db, slowRun, "queued")));
    const started = performance.now();
    const workers = startWorkers(count, slowScript);
    await waitDone(ids);
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(workers.map(({ worker }) => worker.stop()));
    return ids.length / seconds;
  };
  const single = await rate(1);
  const triple = await rate(3);
  console.log(`${label}: runs per second on 50 ms tool calls: 1 worker ${single.toFixed(1)}, 3 workers ${triple.toFixed(1)} = ${(triple / single).toFixed(2)}x (target ≥ 2.2x)`);
}

await queueFigures("embedded (SQLite)", sqlite);
const postgres = await createTestPostgres();
if ("skipped" in postgres) console.log(postgres.skipped);
else {
  const pg = postgresDatabase(postgres.url);
  await queueFigures("Postgres", pg);
  await pg.close();
  await postgres.dispose();
}
await sqlite.close();
await database.dispose();
await nodes.remove();
process.exit(0);
