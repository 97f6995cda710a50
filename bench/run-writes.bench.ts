/**
 * The journal's write path during real runs, as ratios against the same runs
 * with an in-memory sink in this process:
 * - persistence cost per tool call (target < 3x);
 * - rows per second written during a 10,000-call run (target ≥ 5,000),
 * on SQLite and on Postgres (when SWITCHBOARD_TEST_POSTGRES_URL answers).
 *
 * Each run is journalled as a worker journals it: fenced by its claim, one
 * step with its rows per transaction, steps safe to repeat committed behind
 * the run in batches. The shape of a run matters, so four are measured:
 * - 20 calls per model turn of a read-only tool (the agent runs a turn's
 *   calls one after another);
 * - 1 call per model turn (a model-turn step between every two calls);
 * - 4 runs at once of a quarter of the calls each (one worker holding 4 runs:
 *   steps of different runs share commits);
 * - 20 calls per turn of a tool that is idempotent but changes something:
 *   each turn's first call waits for the turn's commit.
 * Each round runs the in-memory baseline before and after the journalled
 * runs and takes the ratio against their mean, since the machine's load
 * moves during a bench; the medians over the rounds are printed. Last, the
 * write path alone: one step and its row per transaction, no engine.
 *
 *   npx tsx bench/run-writes.bench.ts [calls] [rounds]
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { scriptedModel, type ScriptedTurn } from "../testing/ai/scripted-model.fixture";
import { DatabaseRunJournal } from "../lib/db/run-journal-store";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { runWorkflow } from "../lib/engine";
import { createLocalEnvironment } from "../lib/runs/local-environment";
import { chainDocument, writeToolLayerNodes } from "../testing/engine/tool-layers.fixture";
import { parseWorkflow, type Workflow } from "../lib/graph";
import { CustomToolRegistry } from "../lib/tools/custom-tool-registry";
import { defineTool } from "../lib/tools/define-tool";
import { MemorySink } from "../lib/trace/memory-sink";
import { benchDatabases, heldRun, load, median, rowsOf } from "./fixtures/journal-runs";

const calls = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 3);
const nodes = await writeToolLayerNodes();
const echo = defineTool({ name: "echo", description: "Echo a text.", parameters: z.object({ text: z.string() }), readOnly: true, idempotent: true, execute: ({ text }) => text });
/** The same, as a write that is safe to repeat (a PUT): it changes something, so it waits for the turn that asked for it. */
const put = defineTool({ name: "echo", description: "Store a text.", parameters: z.object({ text: z.string() }), idempotent: true, execute: ({ text }) => text });

interface Shape {
  label: string;
  perTurn: number;
  runs: number;
  writes?: boolean;
}
const shapes: Shape[] = [
  { label: "20 calls per turn, 1 run", perTurn: 20, runs: 1 },
  { label: "1 call per turn, 1 run", perTurn: 1, runs: 1 },
  { label: "20 calls per turn, 4 runs at once", perTurn: 20, runs: 4 },
  { label: "20 idempotent writes per turn, 1 run", perTurn: 20, runs: 1, writes: true },
];

function script(total: number, perTurn: number): ScriptedTurn[] {
  const turns = Math.ceil(total / perTurn);
  const toolCalls = (turn: number) => Array.from({ length: Math.min(perTurn, total - turn * perTurn) }, (_, index) => ({ name: "echo", arguments: { text: `call ${turn}.${index}` } }));
  return [...Array.from({ length: turns }, (_, turn) => ({ toolCalls: toolCalls(turn) })), { text: "done" }];
}

function workflowFor(total: number, perTurn: number): Workflow {
  const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "custom", name: "echo" }], config: { maxTurns: Math.ceil(total / perTurn) + 2 } }]));
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return parsed.workflow;
}

/** Runs the shape's runs at once; the database, or the in-memory sink when none. Milliseconds, and the rows written. */
async function runShape(shape: Shape, db: SqlDatabase | null): Promise<{ ms: number; rows: number }> {
  const each = Math.ceil(calls / shape.runs);
  const workflow = workflowFor(each, shape.perTurn);
  const prepared = await Promise.all(
    Array.from({ length: shape.runs }, async () => {
      const env = await createLocalEnvironment({ nodesDir: nodes.nodesDir, overrides: { models: () => scriptedModel(script(each, shape.perTurn)), customTools: new CustomToolRegistry([shape.writes ? put : echo]) } });
      if (!db) return { runId: randomUUID(), env, store: null };
      const { runId, holder } = await heldRun(db, workflow);
      return { runId, env, store: await DatabaseRunJournal.open(db, runId, holder) };
    }),
  );
  const started = performance.now();
  const outcomes = await Promise.all(
    prepared.map(({ runId, env, store }) => {
      const sink = store ?? new MemorySink();
      return runWorkflow({ runId, workflowId: null, workflow, input: { question: "go" }, sink, ...(store ? { journal: store } : {}), env });
    }),
  );
  const ms = performance.now() - started;
  const failed = outcomes.find((outcome) => outcome.status !== "completed");
  if (failed) throw new Error(`a bench run ended ${failed.status}: ${failed.error}`);
  return { ms, rows: db ? await rowsOf(db, prepared.map(({ runId }) => runId)) : 0 };
}

const { stores, dispose } = await benchDatabases();
await runShape({ label: "warm-up", perTurn: 20, runs: 1 }, null);
console.log(`${load()} at the start`);
console.log(`${calls} tool calls per shape, ${rounds} rounds; medians (range) of µs per call, of the ratio to the in-memory sink (target < 3x) and of rows per second written (target ≥ 5,000)`);
const range = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
for (const shape of shapes) {
  const memory: number[] = [];
  const figures = new Map(stores.map(([label]) => [label, { perCall: [] as number[], ratio: [] as number[], rate: [] as number[] }]));
  for (let round = 0; round < rounds; round++) {
    const before = await runShape(shape, null);
    const measured: Array<[string, { ms: number; rows: number }]> = [];
    for (const [label, db] of stores) measured.push([label, await runShape(shape, db)]);
    const after = await runShape(shape, null);
    // Each round's ratio against the in-memory runs just before and after it: the load moves less within a round than across them.
    const memoryMs = (before.ms + after.ms) / 2;
    memory.push((memoryMs * 1000) / calls);
    for (const [label, { ms, rows }] of measured) {
      const figure = figures.get(label)!;
      figure.perCall.push((ms * 1000) / calls);
      figure.ratio.push(ms / memoryMs);
      figure.rate.push(rows / (ms / 1000));
    }
  }
  console.log(`\n${shape.label} (${load()}): in-memory sink ${median(memory).toFixed(1)} µs/call (${range(memory, 0)})`);
  for (const [label, figure] of figures) {
    console.log(`  ${label.padEnd(9)} ${median(figure.perCall).toFixed(1).padStart(7)} µs/call = ${median(figure.ratio).toFixed(2)}x the in-memory sink (${range(figure.ratio, 2)}); ${Math.round(median(figure.rate))} rows/s (${range(figure.rate, 0)})`);
  }
}

/** Steps per second through the journal alone: one step with its trace row per transaction, one after another. */
async function writePath(db: SqlDatabase, count: number): Promise<number> {
  const { runId, holder } = await heldRun(db, workflowFor(1, 1));
  const store = await DatabaseRunJournal.open(db, runId, holder);
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const key = `agent#1/t${index}/c0`;
    const row = { id: randomUUID(), runId, nodeRunId: null, tool: "echo", server: "custom", caller: "agent", arguments: { text: "x" }, result: "ok", error: null, isError: false, tainted: false, startedAt: new Date().toISOString(), durationMs: 0, inputTokens: null, outputTokens: null, stepKey: key };
    await store.record({ key, kind: "tool-call", value: { outcome: { output: "ok", isError: false } } }, { toolCalls: [row], taint: [] });
  }
  return count / ((performance.now() - started) / 1000);
}
console.log("");
for (const [label, db] of stores) console.log(`write path alone (one step + its row per transaction, no engine), ${label}: ${Math.round(await writePath(db, 5000))} rows/s (${load()})`);

await dispose();
await nodes.remove();
process.exit(0);
