/**
 * The cost of durable runs, as ratios against a baseline in this process:
 * - persistence per tool call: a run journalled on SQLite (one transaction
 *   per step) against the same run with an in-memory sink (target < 3x);
 * - rows per second written during a 10,000-call run (target ≥ 5,000);
 * - queue latency, enqueue → first step, p50 / p99 (embedded SQLite; Postgres
 *   when SWITCHBOARD_TEST_POSTGRES_URL answers);
 * - runs per second with 1 vs 3 workers on tool calls that take 50 ms
 *   (target: 3 workers ≥ 2.2x one).
 *
 *   npx tsx bench/durable-runs.bench.ts [calls]
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { DatabaseRunJournal } from "../lib/db/run-journal-store";
import { DatabaseRunQueue } from "../lib/db/database-run-queue";
import { createTemporaryDatabase } from "../lib/db/temporary-database";
import { createTestPostgres } from "../lib/db/postgres/test-postgres";
import { postgresDatabase } from "../lib/db/sql/postgres-database";
import { sqliteDatabase } from "../lib/db/sql/sqlite-database";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { scriptedModel } from "../lib/ai/scripted-model";
import { createLocalEnvironment, runWorkflow, type EngineEnvironment } from "../lib/engine";
import { chainDocument, writeToolLayerNodes } from "../lib/engine/tool-layer-fixtures";
import { parseWorkflow } from "../lib/graph";
import { RunWorker } from "../lib/queue/run-worker";
import { CustomToolRegistry } from "../lib/tools/custom-tool-registry";
import { defineTool } from "../lib/tools/define-tool";
import { MemorySink } from "../lib/trace/memory-sink";

const calls = Number(process.argv[2] ?? 10_000);
const perTurn = 20;
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

const manyCalls = (total: number) => {
  const turns = Math.ceil(total / perTurn);
  return [
    ...Array.from({ length: turns }, (_, turn) => ({ toolCalls: Array.from({ length: Math.min(perTurn, total - turn * perTurn) }, (_, index) => ({ name: "echo", arguments: { text: `call ${turn}.${index}` } })) })),
    { text: "done" },
  ];
};
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

// 1. Persistence per tool call, and rows per second.
const workflow = document("echo", Math.ceil(calls / perTurn) + 2);
const memoryStart = performance.now();
const memory = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow, input: { question: "go" }, sink: new MemorySink(), env: await environment(manyCalls(calls)) });
const memoryMs = performance.now() - memoryStart;
const runId = await insertRun(sqlite, workflow, "running");
const journal = await DatabaseRunJournal.open(sqlite, runId);
const durableStart = performance.now();
const durable = await runWorkflow({ runId, workflowId: null, workflow, input: { question: "go" }, sink: journal, journal, env: await environment(manyCalls(calls)) });
const durableMs = performance.now() - durableStart;
const [{ rows }] = await sqlite.query<{ rows: number }>(`SELECT (SELECT COUNT(*) FROM "ToolCall" WHERE "runId" = ?) + (SELECT COUNT(*) FROM "RunStep" WHERE "runId" = ?) + (SELECT COUNT(*) FROM "NodeRun" WHERE "runId" = ?) AS "rows"`, [runId, runId, runId]);
console.log(`in-memory sink:       ${memory.status}, ${calls} calls in ${memoryMs.toFixed(0)} ms (${((memoryMs * 1000) / calls).toFixed(1)} µs/call)`);
console.log(`journalled on SQLite: ${durable.status}, ${calls} calls in ${durableMs.toFixed(0)} ms (${((durableMs * 1000) / calls).toFixed(1)} µs/call)`);
console.log(`persistence cost per tool call: ${(durableMs / memoryMs).toFixed(2)}x the in-memory sink (target < 3x)`);
console.log(`rows written during the run: ${rows} in ${(durableMs / 1000).toFixed(2)} s = ${Math.round(rows / (durableMs / 1000))} rows/s (target ≥ 5,000)`);

// The write path alone: one step with its trace row per transaction, no engine around it.
async function writePath(db: SqlDatabase, count: number): Promise<number> {
  const id = await insertRun(db, workflow, "running");
  const store = await DatabaseRunJournal.open(db, id);
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const key = `agent#1/t${index}/c0`;
    await store.record(
      { key, kind: "tool-call", value: { outcome: { output: "ok", isError: false } } },
      { toolCalls: [{ id: randomUUID(), runId: id, nodeRunId: null, tool: "echo", server: "custom", caller: "agent", arguments: { text: "x" }, result: "ok", error: null, isError: false, tainted: false, startedAt: new Date().toISOString(), durationMs: 0, inputTokens: null, outputTokens: null, stepKey: key }], taint: [] },
    );
  }
  return count / ((performance.now() - started) / 1000);
}
console.log(`write path alone (one step + its row per transaction): ${Math.round(await writePath(sqlite, 5000))} rows/s on SQLite`);

// 2. Queue latency and 3. workers, on one database.
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
  const pgRun = await insertRun(pg, workflow, "running");
  const pgJournal = await DatabaseRunJournal.open(pg, pgRun);
  const started = performance.now();
  await runWorkflow({ runId: pgRun, workflowId: null, workflow, input: { question: "go" }, sink: pgJournal, journal: pgJournal, env: await environment(manyCalls(calls)) });
  const ms = performance.now() - started;
  const [{ rows: pgRows }] = await pg.query<{ rows: string }>(`SELECT (SELECT COUNT(*) FROM "ToolCall" WHERE "runId" = ?) + (SELECT COUNT(*) FROM "RunStep" WHERE "runId" = ?) AS "rows"`, [pgRun, pgRun]);
  console.log(`write path alone on Postgres: ${Math.round(await writePath(pg, 2000))} rows/s`);
  console.log(`journalled on Postgres: ${calls} calls in ${ms.toFixed(0)} ms = ${(ms / memoryMs).toFixed(2)}x the in-memory sink; ${Math.round(Number(pgRows) / (ms / 1000))} rows/s`);
  await queueFigures("Postgres", pg);
  await pg.close();
  await postgres.dispose();
}
await sqlite.close();
await database.dispose();
await nodes.remove();
process.exit(0);
