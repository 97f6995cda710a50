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

/**
 * Milliseconds to read and serialize an answer, as the route does: on the
 * clock, and of this process's CPU (SQLite runs in it, so that is all the
 * work the answer costs; on a busy machine the clock also counts waiting
 * for a core).
 */
async function served(read: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  const begin = performance.now();
  const cpu = process.cpuUsage();
  const text = JSON.stringify(await read());
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - begin, cpuMs: (used.user + used.system) / 1000, bytes: Buffer.byteLength(text) };
}

/** The old way: every model turn of the run read and parsed (each poll did it twice, each turns page and the runs list once). */
async function parseEveryTurn(runId: string) {
  const steps = await prisma().runStep.findMany({ where: { runId, kind: "model-turn" }, select: { key: true, value: true } });
  return modelTurnsFromJournal(runId, steps.map((step) => ({ key: step.key, value: fromJsonText(step.value) })));
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

try {
  const small = await seedRun(10);
  const large = await seedRun(largeCount);
  const runs = [small, large];
  // Warm-up: modules, prepared statements, the database's pages.
  for (const run of runs) {
    const overview = await getTraceOverview(run.runId);
    await getTraceChanges(run.runId, parseCursor(overview!.cursor!)!, noFilters);
    await getTurnPage(run.runId, { group: run.nodeRunId, offset: 0, limit: 100 });
    await parseEveryTurn(run.runId);
  }
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
  const idle = { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
  let peak = { ...idle };
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak = { rss: Math.max(peak.rss, now.rss), heap: Math.max(peak.heap, now.heapUsed) };
  }, 5);

  const figures = new Map<string, Array<{ ms: number; cpuMs: number; bytes: number }>>();
  const record = (label: string, value: { ms: number; cpuMs: number; bytes: number }) => figures.set(label, [...(figures.get(label) ?? []), value]);
  const cursors = new Map<string, string>();
  for (const run of runs) cursors.set(run.runId, (await getTraceOverview(run.runId))!.cursor!);
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of [["small", small], ["large", large]] as const) {
      // The run goes on between two polls: 5 more turns, each with its call.
      await run.write(5);
      let cursor = cursors.get(run.runId)!;
      record(`${name} poll`, await served(async () => {
        const changes = await getTraceChanges(run.runId, parseCursor(cursor)!, noFilters);
        cursor = changes!.cursor;
        return changes;
      }));
      cursors.set(run.runId, cursor);
      record(`${name} overview`, await served(() => getTraceOverview(run.runId)));
      record(`${name} turns page`, await served(() => getTurnPage(run.runId, { group: run.nodeRunId, offset: Math.min(4000, Math.floor(largeCount * 0.4)), limit: 100 })));
      record(`${name} runs list totals`, await served(async () => Object.fromEntries(await readRunTotals(prisma(), [run.runId]))));
    }
  }
  clearInterval(sampler);
  const servedPeak = peak;
  // The baseline, apart, so its memory is not counted as the reads': what every old read did first.
  gc();
  peak = { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
  const baselineSampler = setInterval(() => {
    const now = process.memoryUsage();
    peak = { rss: Math.max(peak.rss, now.rss), heap: Math.max(peak.heap, now.heapUsed) };
  }, 5);
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of [["small", small], ["large", large]] as const) record(`${name} parse every turn`, await served(() => parseEveryTurn(run.runId)));
  }
  clearInterval(baselineSampler);
  const parsing = peak;

  const ms = (label: string) => median(figures.get(label)!.map((figure) => figure.ms));
  const cpuMs = (label: string) => median(figures.get(label)!.map((figure) => figure.cpuMs));
  const kb = (label: string) => median(figures.get(label)!.map((figure) => figure.bytes)) / 1024;
  const line = (label: string, value: string, note: string) => console.log(`${label.padEnd(50)} ${value.padStart(10)}   ${note}`);
  const cpu = (label: string) => `CPU ${cpuMs(label).toFixed(1)} ms`;
  const count = largeCount.toLocaleString("en-US");
  console.log(`trace reads in process, SQLite, median of ${rounds}; load average ${os.loadavg().map((load) => load.toFixed(2)).join(" ")} (${os.cpus().length} cores)`);
  console.log(`baseline: parsing every turn of the ${count}-turn run, ${ms("large parse every turn").toFixed(1)} ms, ${cpu("large parse every turn")} (the 10-turn run: ${ms("small parse every turn").toFixed(1)} ms)`);
  for (const [label, name] of [["live poll answer (?since=<cursor>)", "poll"], ["overview (first answer)", "overview"], ["turns page of 100 at turn 4,000", "turns page"], ["runs list totals", "runs list totals"]] as const) {
    line(`${label}, 10 calls`, `${ms(`small ${name}`).toFixed(1)} ms`, `${cpu(`small ${name}`)}, ${kb(`small ${name}`).toFixed(1)} KB`);
    line(`${label}, ${count} calls`, `${ms(`large ${name}`).toFixed(1)} ms`, `${cpu(`large ${name}`)}, ${kb(`large ${name}`).toFixed(1)} KB, ${(ms(`large ${name}`) / ms(`small ${name}`)).toFixed(2)}× the 10-call run, ${(ms(`large ${name}`) / ms("large parse every turn")).toFixed(2)}× parsing every turn`);
  }
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  line("memory idle (resident / heap)", `${mb(idle.rss)}`, `heap ${mb(idle.heap)}`);
  line("memory peak while serving the reads", `${mb(servedPeak.rss)}`, `${(servedPeak.rss / idle.rss).toFixed(2)}× idle resident; heap ${mb(servedPeak.heap)}, ${(servedPeak.heap / idle.heap).toFixed(2)}× idle`);
  line("memory peak while parsing every turn (baseline)", `${mb(parsing.rss)}`, `${(parsing.rss / idle.rss).toFixed(2)}× idle resident; heap ${mb(parsing.heap)}, ${(parsing.heap / idle.heap).toFixed(2)}× idle`);
  const targets = [
    [`poll answer under 50 ms (${ms("large poll").toFixed(0)} ms, CPU ${cpuMs("large poll").toFixed(0)} ms)`, ms("large poll") < 50],
    [`overview under 50 ms (${ms("large overview").toFixed(0)} ms, CPU ${cpuMs("large overview").toFixed(0)} ms)`, ms("large overview") < 50],
    ["memory under 1.2× idle", servedPeak.rss < 1.2 * idle.rss],
  ] as const;
  console.log(`targets: ${targets.map(([label, ok]) => `${label} ${ok ? "met" : "MISSED"}`).join("; ")}`);
  if (process.argv.includes("--strict") && targets.some(([, ok]) => !ok)) process.exitCode = 1;
} finally {
  await sql.close();
  await prisma().$disconnect();
  rmSync(folder, { recursive: true, force: true });
}
