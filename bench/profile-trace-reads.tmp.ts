/**
 * The run page's reads of a live run with 10,000 tool calls and 10,000
 * model turns, written through the database journal as the engine writes
 * them (SQLite), served in this process as the server serves them (the
 * read, then the JSON of the answer), each figure the median of 3:
 * - the live poll's answer (GET /api/runs/<id>?since=<cursor>), after the
 *   run wrote 5 more turns and 5 more calls: target under 50 ms;
 * - the overview (the page's first answer): target under 50 ms;
 * - a page of 100 turns at turn 4,000, and the runs list's totals;
 * - the baseline, in the same process: what parsing every turn of the run
 *   costs (what each of those reads did before the turns' columns and the
 *   Run row's totals), and the same reads of a 10-call / 10-turn run;
 * - memory (resident and heap) while serving the reads, against the same
 *   process idle after the run was written: target under 1.2x.
 * The load average is printed with the figures.
 *
 *   npx tsx bench/trace-reads.bench.ts [calls] [--strict]   (--strict: exit 1 when a target is missed)
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

// The trace's reads are server-only modules: they load under the react-server condition, as in the app's server.
if (!process.execArgv.some((flag) => flag.includes("react-server"))) {
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--expose-gc", "--import", "tsx", new URL(import.meta.url).pathname, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}

const [countArgument] = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));
const largeCount = Number(countArgument ?? 10_000);
const rounds = 3;
const folder = mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-trace-reads-"));
const databaseUrl = `file:${path.join(folder, "bench.db")}`;
process.env.DATABASE_URL = databaseUrl;

const root = path.resolve(import.meta.dirname, "..");
spawnSync(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], { cwd: root, env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" }, stdio: "ignore" });

const { DatabaseRunJournal } = await import("../lib/db/run-journal-store");
const { sqliteDatabase } = await import("../lib/db/sql/sqlite-database");
const { getTraceOverview, getTurnPage } = await import("../lib/db/trace-reads");
const { getTraceChanges } = await import("../lib/db/trace-changes");
const { readRunTotals } = await import("../lib/db/run-totals");
const { prisma } = await import("../lib/db/client");
const { fromJsonText } = await import("../lib/db/json-text");
const { modelTurnsFromJournal } = await import("../lib/trace/model-turns");
const { noFilters, parseCursor } = await import("../lib/trace/trace-page");

const sql = sqliteDatabase(databaseUrl);
const start = Date.UTC(2026, 11, 1, 9, 0, 0);
const at = (ms: number) => new Date(start + ms).toISOString();

/** A running run of one agent: `count` turns, each asking for one call, journalled in batches as the recorder commits them. */
async function seedRun(count: number) {
  const runId = randomUUID();
  const nodeRunId = `${runId}-agent`;
  await sql.execute(`INSERT INTO "Run" ("id", "document", "input", "status", "outputs", "startedAt", "resumeCount") VALUES (?, ?, '{}', 'running', '{}', ?, 0)`, [runId, JSON.stringify({ version: 1, name: `Bench reads (${count})`, nodes: [], edges: [] }), new Date(start)]);
  const journal = await DatabaseRunJournal.open(sql, runId);
  await journal.nodeStart({ runId, nodeRunId, nodeId: "agent", nodeType: "openai-agent", parentToolCallId: null, inputs: { question: "many turns" }, startedAt: at(1) });
  let written = 0;
  const write = async (turns: number) => {
    const entries = [];
    for (let index = 0; index < turns; index++) {
      const number = (written += 1);
      const key = `agent#1/t${number}`;
      const toolCalls = [{ id: `call_${number}`, name: `tool${number % 12}`, arguments: JSON.stringify({ number }), input: { number } }];
      const row = { id: `${runId}-turn-${number}`, nodeRunId, nodeId: "agent", sequence: number, model: "gpt-bench", provider: "openai-chat", text: "", toolCalls, finishReason: "tool-calls", inputTokens: 100 + number, outputTokens: 12, costUsd: 0.0001, startedAt: at(number * 4), durationMs: 2, callsBefore: number - 1, contextKey: null, sentResults: [{ id: `call_${number - 1}`, name: "tool", isError: false, chars: 96 }] };
      entries.push({ step: { key, kind: "model-turn" as const, value: { turn: { text: "", toolCalls }, model: { protocol: "bench" }, latencyMs: 2, sent: { tools: [], results: [] }, row } }, rows: { toolCalls: [], taint: [] }, recordedAt: new Date(start + number * 4 + 1), repeatable: true });
      const call = { id: `${runId}-call-${number}`, runId, nodeRunId, tool: `tool${number % 12}`, server: "web", caller: "agent", arguments: { number }, result: { number, text: "a result of some length ".repeat(4) }, error: null, isError: number % 50 === 0, tainted: false, startedAt: at(number * 4 + 2), durationMs: 2, inputTokens: 100 + number, outputTokens: 12, stepKey: `${key}/c0` };
      entries.push({ step: { key: `${key}/c0`, kind: "tool-call" as const, value: { output: "…", isError: false } }, rows: { toolCalls: [call], taint: [] }, recordedAt: new Date(start + number * 4 + 3), repeatable: true });
    }
    for (let offset = 0; offset < entries.length; offset += 200) await journal.recordSteps(entries.slice(offset, offset + 200));
  };
  await write(count);
  return { runId, nodeRunId, write };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Milliseconds to read and serialize an answer, as the route does. */
async function served(read: () => Promise<unknown>): Promise<{ ms: number; bytes: number }> {
  const begin = performance.now();
  const text = JSON.stringify(await read());
  return { ms: performance.now() - begin, bytes: Buffer.byteLength(text) };
}

/** The old way: every model turn of the run read and parsed (each poll did it twice, each turns page and the runs list once). */
async function parseEveryTurn(runId: string) {
  const steps = await prisma().runStep.findMany({ where: { runId, kind: "model-turn" }, select: { key: true, value: true } });
  return modelTurnsFromJournal(runId, steps.map((step) => ({ key: step.key, value: fromJsonText(step.value) })));
}


const { readTraceCursor, readAggregates, countCallsByGroup } = await import("../lib/db/trace-aggregates");
const { readRunTimeline } = await import("../lib/db/run-timeline-read");
const { readTurnPlaces } = await import("../lib/db/turn-reads");
const { toRunRecord, toNodeRunRecord } = await import("../lib/db/run-rows");
try {
  const large = await seedRun(largeCount);
  await large.write(5);
  const db = prisma();
  const run = toRunRecord((await db.run.findUnique({ where: { id: large.runId } }))!);
  const nodeRuns = (await db.nodeRun.findMany({ where: { runId: large.runId } })).map(toNodeRunRecord);
  const cur = await readTraceCursor(large.runId);
  const since = cur.rows - 20;
  const parts: Record<string, () => Promise<unknown>> = {
    cursor: () => readTraceCursor(large.runId),
    runRow: () => db.run.findUnique({ where: { id: large.runId } }),
    timeline: () => readRunTimeline(db, run, nodeRuns, new Date().toISOString()),
    waits: () => db.runStep.findMany({ where: { runId: large.runId, kind: { in: ["waiting", "decision"] } }, select: { key: true } }),
    aggregates: () => readAggregates(large.runId),
    groups: () => countCallsByGroup(large.runId, noFilters),
    totals: () => readRunTotals(db, [large.runId]),
    turnPlacesRange: () => readTurnPlaces(db, large.runId, { after: since, upTo: cur.rows }),
    turnPlacesAll: () => readTurnPlaces(db, large.runId),
    nodeResults: () => db.runStep.findMany({ where: { runId: large.runId, kind: "node-result", sequence: { gt: since } }, select: { key: true } }),
    newCalls: () => db.toolCall.findMany({ where: { runId: large.runId, sequence: { gt: since } }, take: 151 }),
    taintCount: () => db.taintRecord.count({ where: { runId: large.runId, sequence: { gt: since } } }),
    placesRaw: () => db.$queryRaw`SELECT "turnNodeRunId" AS "group", group_concat("turnCallsBefore") AS "places" FROM (SELECT "turnNodeRunId", "turnCallsBefore" FROM "RunStep" WHERE "runId" = ${large.runId} AND "turnNodeRunId" IS NOT NULL ORDER BY "turnNodeRunId", "turnCallsBefore", "turnSequence", "turnStartedAt", "key") GROUP BY "turnNodeRunId"`,
    firstCall: () => db.toolCall.findFirst({ where: { runId: large.runId }, orderBy: { startedAt: "asc" }, select: { startedAt: true } }),
    lastCall: () => db.toolCall.findFirst({ where: { runId: large.runId }, orderBy: { startedAt: "desc" }, select: { startedAt: true } }),
    callTotals: () => db.runCallTotal.findMany({ where: { runId: large.runId } }),
    maxSeqStep: () => db.runStep.findFirst({ where: { runId: large.runId }, orderBy: { sequence: "desc" }, select: { sequence: true } }),
    maxSeqAgg: () => db.runStep.aggregate({ where: { runId: large.runId }, _max: { sequence: true } }),
    onlyAttempt: () => db.runStep.findFirst({ where: { runId: large.runId, sequence: { gt: 0 }, recordedAt: { gte: new Date(0) } }, orderBy: { sequence: "asc" }, select: { recordedAt: true } }),
    changes: () => getTraceChanges(large.runId, { rows: since, nodeRuns: cur.nodeRuns }, noFilters),
    overview: () => getTraceOverview(large.runId),
  };
  for (const [name, part] of Object.entries(parts)) {
    await part();
    const times = [];
    for (let i = 0; i < 5; i++) { const b = performance.now(); await part(); times.push(performance.now() - b); }
    console.log(name.padEnd(20), median(times).toFixed(1), "ms");
  }
} finally {
  await sql.close();
  await prisma().$disconnect();
  rmSync(folder, { recursive: true, force: true });
}
