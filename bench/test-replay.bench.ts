/**
 * A test case replayed from its cassette against the same run replayed from
 * its journal (a resume), on SQLite, in this process. The recorded run: one
 * agent making 1,000 tool calls (100 turns of 10, then an answer), live.
 * Both sides start where a worker starts once it has claimed a run, and
 * both replay that same recorded run:
 *
 * - resume: opens the recorded run's journal, which reads its 1,000 call
 *   outcomes, 101 model turns and tool context back from the database,
 *   then runs the engine over it: every turn and call is looked up in the
 *   journal (counted: all 1,101 must be found) and none is asked or made;
 *   it writes only the run's and the node run's start and end.
 * - case: reads the case's cassette from its RunStep row (as the worker
 *   does for a run of origin test), opens the new run's (empty) journal and
 *   runs the engine with the cassette environment: each model turn's request
 *   is built and matched against the recorded one, each call's arguments
 *   scored against the recorded call and answered from the cassette, and
 *   the new run writes its 1,000 call rows and 101 turns like any run.
 *   Then the verdict `workflow test` gives: the run's outline read back (its
 *   end, node runs and calls in order) and judged against the case (outputs,
 *   the call sequence; the whole trace and a diff only on a failure).
 *
 * A third line runs the case on an in-memory journal and sink (nothing
 * written): what the engine and the cassette cost alone, so the case's
 * run less it is the cost of writing its rows.
 *
 * The run service's queueing and a worker's claim and poll are left out of
 * both (the same on either side). Wall time and this process's CPU time,
 * medians of 3 rounds after a warm-up; the load is printed with them (on a
 * busy machine wall time follows the load, CPU time much less).
 * Target: the case under 2x the resume.
 *
 *   npx tsx bench/test-replay.bench.ts
 */
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { scriptedModel } from "../testing/ai/scripted-model.fixture";
import { readPinSource } from "../lib/db/pin-source";
import { DatabaseRunJournal } from "../lib/db/run-journal-store";
import { sqliteDatabase } from "../lib/db/sql/sqlite-database";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { createTemporaryDatabase } from "../testing/db/temporary-database.fixture";
import { cassetteInsert, readCassette } from "../lib/db/test-cassettes";
import { readWholeRunTrace } from "../lib/db/whole-run-trace";
import { readRunOutline } from "../lib/db/run-outline";
import { cachedNodeTypes, runWorkflow, type EngineEnvironment } from "../lib/engine";
import { memoryJournal } from "../lib/engine/journal/memory-journal";
import { createLocalEnvironment } from "../lib/runs/local-environment";
import { chainDocument, writeToolLayerNodes } from "../testing/engine/tool-layers.fixture";
import { caseVerdict } from "../lib/evals/case-verdict";
import { cassetteEnvironment, type StoredCassette } from "../lib/evals/cassette-environment";
import { pinRun } from "../lib/evals/pin-run";
import { parseWorkflow, type Workflow } from "../lib/graph";
import { CustomToolRegistry } from "../lib/tools/custom-tool-registry";
import { MemorySink } from "../lib/trace/memory-sink";
import { defineTool } from "../lib/tools/define-tool";

const turns = 100;
const callsPerTurn = 10;
const rounds = 7;

const nodes = await writeToolLayerNodes();
const database = await createTemporaryDatabase();
const db: SqlDatabase = sqliteDatabase(database.url);

let realCalls = 0;
let modelTurns = 0;
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
        return scriptedModel(Array.from({ length: turns + 1 }, () => (request: { results: unknown[] }) => (modelTurns++, script(request, ++turn))));
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

interface Timing {
  wall: number;
  cpu: number;
}

/** Wall and CPU time of one side, from the same start. */
async function timed(side: () => Promise<void>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await side();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

/** Opens the run's journal (reading what it recorded) and runs the engine over it; answers how many steps it found recorded. */
async function run(runId: string, env: () => Promise<EngineEnvironment>): Promise<number> {
  const journal = await DatabaseRunJournal.open(db, runId);
  let found = 0;
  const lookup = journal.lookup.bind(journal);
  journal.lookup = (key) => {
    const step = lookup(key);
    if (step) found++;
    return step;
  };
  const outcome = await runWorkflow({ runId, workflowId: null, workflow, input: { question: "go" }, sink: journal, journal, env: await env() });
  if (outcome.status !== "completed") throw new Error(`run ${runId} ${outcome.status}: ${outcome.error}`);
  return found;
}

// The recorded run: live, 1,000 real calls.
const recordedId = randomUUID();
await insertRun(recordedId, { kind: "cli" });
const live = await timed(async () => void (await run(recordedId, environment)));
if (realCalls !== turns * callsPerTurn) throw new Error(`expected ${turns * callsPerTurn} real calls, got ${realCalls}`);
const source = await readPinSource(database.client, recordedId);
if (!source) throw new Error("the recorded run cannot be read");
const testCase = pinRun(source, { nodeTypes: await cachedNodeTypes(nodes.nodesDir) });
const calls = testCase.nodes.flatMap((node) => node.steps).filter((step) => step.kind === "tool-call").length;
const cassette: StoredCassette = { caseName: testCase.name, nodes: testCase.nodes, assertions: testCase.assertions, live: { model: false, tools: false } };

const parts = { resume: [] as Timing[], case: [] as Timing[], caseRun: [] as Timing[], verdict: [] as Timing[], inMemory: [] as Timing[] };
const loadBefore = loadavg();
realCalls = 0;
modelTurns = 0;
for (let round = 0; round <= rounds; round++) {
  let found = 0;
  const resume = await timed(async () => void (found = await run(recordedId, environment)));
  if (found < calls + turns + 1) throw new Error(`the resume found ${found} recorded steps, expected at least ${calls + turns + 1}`);
  const caseId = randomUUID();
  await insertRun(caseId, { kind: "test" });
  await db.transaction([cassetteInsert(caseId, cassette, new Date())]);
  let caseRun: Timing = { wall: 0, cpu: 0 };
  let verdict: Timing = { wall: 0, cpu: 0 };
  const whole = await timed(async () => {
    caseRun = await timed(async () => {
      const stored = await readCassette(db, caseId);
      if (!stored) throw new Error("the cassette was not stored");
      await run(caseId, async () => cassetteEnvironment(await environment(), stored));
    });
    verdict = await timed(async () => {
      const trace = await readRunOutline(database.client, caseId);
      if (!trace) throw new Error("the case's run cannot be read");
      const judged = await caseVerdict(testCase, trace, {}, () => readWholeRunTrace(database.client, caseId));
      if (!judged.pass) throw new Error(`the case failed: ${judged.failures[0]}`);
    });
  });
  // The same case run with nothing written: its engine and cassette cost alone (the difference is the database's).
  const inMemory = await timed(async () => {
    const sink = new MemorySink();
    const outcome = await runWorkflow({ runId: randomUUID(), workflowId: null, workflow, input: { question: "go" }, sink, journal: memoryJournal(sink), env: cassetteEnvironment(await environment(), cassette) });
    if (outcome.status !== "completed") throw new Error(`the in-memory case run ${outcome.status}: ${outcome.error}`);
  });
  // Round 0 warms up (module loading, JIT).
  if (round > 0) {
    parts.inMemory.push(inMemory);
    parts.resume.push(resume);
    parts.case.push(whole);
    parts.caseRun.push(caseRun);
    parts.verdict.push(verdict);
  }
}
if (realCalls !== 0 || modelTurns !== 0) throw new Error(`the replays made ${realCalls} real calls and asked the model ${modelTurns} times`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const of = (list: Timing[]) => ({ wall: median(list.map((item) => item.wall)), cpu: median(list.map((item) => item.cpu)) });
const line = (label: string, timing: Timing, extra = "") => console.log(`  ${label.padEnd(40)} ${timing.wall.toFixed(0).padStart(6)} ms wall ${timing.cpu.toFixed(0).padStart(6)} ms CPU${extra}`);
const resume = of(parts.resume);
const whole = of(parts.case);
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(" ");
console.log(`a case of ${calls} tool calls and ${turns + 1} model turns, SQLite, medians of ${rounds} rounds; load ${load(loadBefore)} before, ${load(loadavg())} after (2 cores)`);
line("live run (recorded)", live);
line("resume (journal read + replay)", resume);
line("case (cassette read + run + verdict)", whole, `   ${(whole.wall / resume.wall).toFixed(2)}x wall, ${(whole.cpu / resume.cpu).toFixed(2)}x CPU the resume (target < 2x), 0 real calls`);
line("  of which the run", of(parts.caseRun));
line("  of which the verdict", of(parts.verdict));
line("the case's run on an in-memory journal", of(parts.inMemory), "   (engine and cassette alone: the run above less this is its database writes)");

await db.close();
await database.dispose();
await nodes.remove();
