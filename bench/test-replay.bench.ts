/**
 * A test case replayed from its cassette against the same run replayed from
 * its journal (a resume), on SQLite, in this process: one agent making
 * 1,000 tool calls (100 turns of 10). The resume reads every step back and
 * writes none; the case runs a new run whose model turns and calls are
 * answered from the cassette, each turn's request matched and each call's
 * arguments scored, and writes its rows like any run.
 * Target: the case under 2x the resume.
 *
 *   npx tsx bench/test-replay.bench.ts
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { scriptedModel } from "../lib/ai/scripted-model";
import { readPinSource } from "../lib/db/pin-source";
import { DatabaseRunJournal } from "../lib/db/run-journal-store";
import { sqliteDatabase } from "../lib/db/sql/sqlite-database";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { createTemporaryDatabase } from "../lib/db/temporary-database";
import { cachedNodeTypes, runWorkflow, type EngineEnvironment } from "../lib/engine";
import { createLocalEnvironment } from "../lib/runs/local-environment";
import { chainDocument, writeToolLayerNodes } from "../testing/engine/tool-layer-fixtures";
import { cassetteEnvironment, type StoredCassette } from "../lib/evals/cassette-environment";
import { pinRun } from "../lib/evals/pin-run";
import { parseWorkflow, type Workflow } from "../lib/graph";
import { CustomToolRegistry } from "../lib/tools/custom-tool-registry";
import { defineTool } from "../lib/tools/define-tool";

const turns = 100;
const callsPerTurn = 10;
const rounds = 3;

const nodes = await writeToolLayerNodes();
const database = await createTemporaryDatabase();
const db: SqlDatabase = sqliteDatabase(database.url);

let realCalls = 0;
const echo = defineTool({ name: "echo", description: "Echo a text.", parameters: z.object({ text: z.string() }), idempotent: true, execute: ({ text }) => (realCalls++, text) });
const script = (request: { results: unknown[] }, turn: number) =>
  turn <= turns ? { toolCalls: Array.from({ length: callsPerTurn }, (_, index) => ({ name: "echo", arguments: { text: `turn ${turn} call ${index}` } })) } : { text: `done after ${request.results.length} results` };

/** A fresh scripted model per agent node run: turn n asks for 10 echoes, then it answers. */
async function environment(): Promise<EngineEnvironment> {
  return createLocalEnvironment({
    nodesDir: nodes.nodesDir,
    overrides: {
      models: () => {
        let turn = 0;
        return scriptedModel(Array.from({ length: turns + 1 }, () => (request: { results: unknown[] }) => script(request, ++turn)));
      },
      customTools: new CustomToolRegistry([echo]),
    },
  });
}

const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [{ type: "custom", name: "echo" }], config: { maxTurns: turns + 1 } }]));
if (!parsed.ok) throw new Error(parsed.problems[0].message);
const workflow: Workflow = parsed.workflow;

async function insertRun(runId: string, origin: object): Promise<void> {
  await db.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount", "origin") VALUES (?, ?, ?, 'running', '{}', ?, 0, ?)`, [runId, JSON.stringify(workflow), JSON.stringify({ question: "go" }), new Date(), JSON.stringify(origin)]);
}

async function run(runId: string, env: EngineEnvironment): Promise<number> {
  const journal = await DatabaseRunJournal.open(db, runId);
  const started = performance.now();
  const outcome = await runWorkflow({ runId, workflowId: null, workflow, input: { question: "go" }, sink: journal, journal, env });
  const ms = performance.now() - started;
  if (outcome.status !== "completed") throw new Error(`run ${runId} ${outcome.status}: ${outcome.error}`);
  return ms;
}

// The recorded run: live, 1,000 real calls.
const recordedId = randomUUID();
await insertRun(recordedId, { kind: "cli" });
const liveMs = await run(recordedId, await environment());
if (realCalls !== turns * callsPerTurn) throw new Error(`expected ${turns * callsPerTurn} real calls, got ${realCalls}`);
const source = await readPinSource(database.client, recordedId);
if (!source) throw new Error("the recorded run cannot be read");
const testCase = pinRun(source, { nodeTypes: await cachedNodeTypes(nodes.nodesDir) });
const calls = testCase.nodes.flatMap((node) => node.steps).filter((step) => step.kind === "tool-call").length;
const cassette: StoredCassette = { caseName: testCase.name, nodes: testCase.nodes, assertions: testCase.assertions, live: { model: false, tools: false } };

const resumes: number[] = [];
const replays: number[] = [];
realCalls = 0;
for (let round = 0; round <= rounds; round++) {
  // The resume: the recorded run taken up again with its whole journal.
  const resumeMs = await run(recordedId, await environment());
  const caseId = randomUUID();
  await insertRun(caseId, { kind: "test" });
  const replayMs = await run(caseId, cassetteEnvironment(await environment(), cassette));
  // Round 0 warms up (module loading, JIT).
  if (round > 0) {
    resumes.push(resumeMs);
    replays.push(replayMs);
  }
}
if (realCalls !== 0) throw new Error(`the replays made ${realCalls} real calls`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const resume = median(resumes);
const replay = median(replays);
console.log(`a case of ${calls} tool calls and ${turns + 1} model turns, SQLite, medians of ${rounds} rounds`);
console.log(`  live run (recorded)          ${liveMs.toFixed(0).padStart(7)} ms`);
console.log(`  journal replay (resume)      ${resume.toFixed(0).padStart(7)} ms`);
console.log(`  case replay from cassette    ${replay.toFixed(0).padStart(7)} ms   ${(replay / resume).toFixed(2)}x the resume (target < 2x), 0 real calls`);

await db.close();
await database.dispose();
await nodes.remove();
