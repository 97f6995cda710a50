/**
 * Runs against an OUTSIDE MCP server, reached through the connection
 * manager as a registry entry, every result tainted: a real MCP SDK server
 * (bench/fixtures/outside-tool.ts) either in a process of its own over
 * Streamable HTTP on 127.0.0.1 ("http"), or in this process over the SDK's
 * linked in-memory transport ("in-process": the engine's cost without the
 * network's). One agent, one call per model turn through the AI SDK adapter
 * (a model double that costs nothing), each query copied out of the last
 * result (so the tainted-argument check finds it), results of about 2 KB.
 * Figures, each a median of 3 in this process with the load beside it:
 * - the engine's cost per call at 100, 1,000 and 10,000 calls (the run less
 *   a run that makes no call, over the calls), outside tools and the same
 *   run against an (untainted) custom tool, on the in-memory sink. Targets:
 *   outside at 10,000 calls under 2x custom; per-call cost at 10,000 within
 *   1.3x of 100, both kinds (over HTTP up to 1,000 calls unless --http-10k);
 * - a 1,000-call run over HTTP against a hand-written MCP client loop making
 *   the same 1,000 calls (connect, call, close): under 3x on the in-memory
 *   sink, under 4x on SQLite and Postgres (journalled as a worker journals);
 * - journal rows/s during a 10,000-call in-process outside run, against the
 *   same driver's ceiling: 10,000 trace rows with their steps in one
 *   transaction through the journal's writer. Target: at least 50% of it.
 *
 *   npx tsx bench/outside-tools.bench.ts [--quick] [--http-10k] [--journal-sdk] [--only=scaling|loop|journal] [--calls=100,1000,10000] [--loop=1000] [--journal=10000]
 *   (--quick: up to 1,000 calls, no journal rows/s; --journal-sdk: the journal's rows/s also with one call
 *   per turn through the AI SDK adapter; --only: one part; the sizes: to try the bench out small)
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { scriptedModel, type ScriptedTurn } from "../testing/ai/scripted-model.fixture";
import { sdkProtocol } from "../lib/ai/sdk-protocol";
import { DatabaseRunJournal } from "../lib/db/run-journal-store";
import type { SqlDatabase } from "../lib/db/sql/sql-database";
import { runWorkflow } from "../lib/engine";
import { createLocalEnvironment } from "../lib/runs/local-environment";
import { chainDocument, writeToolLayerNodes } from "../testing/engine/tool-layers.fixture";
import { parseWorkflow, type Workflow } from "../lib/graph";
import { ConnectionManager } from "../lib/mcp/connection-manager";
import { inProcessConnector } from "../lib/mcp/connection-manager/in-process-connector";
import { InMemoryServerRegistry } from "../lib/mcp/registry";
import { CustomToolRegistry } from "../lib/tools/custom-tool-registry";
import { defineTool } from "../lib/tools/define-tool";
import { MemorySink } from "../lib/trace/memory-sink";
import { benchModel } from "./fixtures/bench-model";
import { benchDatabases, heldRun, load, median, rowsOf } from "./fixtures/journal-runs";
import { benchQuery, lookupPage, outsideToolServer } from "./fixtures/outside-tool";
import { z } from "zod";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const quick = process.argv.includes("--quick");
/** `--name=N,M` on the command line, else the default (to try the bench out at small sizes). */
const numbers = (name: string, fallback: number[]) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1].split(",").map(Number) ?? fallback;
const sizes = numbers("calls", quick ? [100, 1000] : [100, 1000, 10_000]);
const [loopCalls] = numbers("loop", [1000]);
const [journalCalls] = numbers("journal", [10_000]);
/** `--only=scaling|loop|journal`: one part of the bench (the parts can run as processes of their own). */
const only = process.argv.find((arg) => arg.startsWith("--only="))?.split("=")[1];
const part = (name: string) => only === undefined || only === name;
const httpSizes = process.argv.includes("--http-10k") ? sizes : sizes.filter((size) => size <= 1000);
const folder = path.dirname(fileURLToPath(import.meta.url));

// The outside server, in its own process.
const serverProcess = spawn(process.execPath, ["--import", "tsx", path.join(folder, "fixtures", "outside-mcp-server.ts")], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise<string>((resolve, reject) => {
  createInterface({ input: serverProcess.stdout! }).once("line", resolve);
  serverProcess.once("exit", (code) => reject(new Error(`the outside MCP server ended (exit ${code}) before printing its URL`)));
});
process.env.SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS = new URL(url).origin;
const registry = new InMemoryServerRegistry();
await registry.save({ id: "outside", name: "Outside", transport: "http", url });

const nodes = await writeToolLayerNodes();
const customLookup = defineTool({ name: "lookup", description: "Look a query up.", parameters: z.object({ query: z.string() }), readOnly: true, execute: ({ query }) => lookupPage(query) });

type Kind = "http" | "in-process" | "custom";
const kinds: Kind[] = ["http", "in-process", "custom"];
const outside = { type: "mcp", serverId: "outside", toolNames: ["lookup"] };
const toolOf: Record<Kind, object> = { http: outside, "in-process": outside, custom: { type: "custom", name: "lookup" } };
const { connect: inProcess } = inProcessConnector({ outside: outsideToolServer });

function workflowFor(kind: Kind, calls: number): Workflow {
  const parsed = parseWorkflow(chainDocument([{ id: "agent", type: "plain-agent", tools: [toolOf[kind]], config: { maxTurns: calls + 2 } }]));
  if (!parsed.ok) throw new Error(parsed.problems[0].message);
  return parsed.workflow;
}

/**
 * One run of `calls` calls; milliseconds, and the rows written when on a
 * database. One call per turn through the AI SDK adapter, or `perTurn` calls
 * per turn from the scripted model (bench/run-writes.bench.ts's shape).
 */
async function engineRun(kind: Kind, calls: number, db: SqlDatabase | null = null, perTurn = 1): Promise<{ ms: number; rows: number }> {
  const workflow = workflowFor(kind, calls);
  const manager = new ConnectionManager(registry, kind === "in-process" ? { connect: inProcess } : {});
  const model = () =>
    perTurn === 1 ? sdkProtocol({ label: "bench", model: benchModel({ calls, tool: "lookup", input: (call: number) => ({ query: benchQuery(call) }) }) }) : scriptedModel(scriptOf(calls, perTurn));
  const env = await createLocalEnvironment({
    nodesDir: nodes.nodesDir,
    overrides: { models: model, ...(kind !== "custom" ? { mcpTools: manager, dispose: () => manager.closeAll() } : { customTools: new CustomToolRegistry([customLookup]) }) },
  });
  let runId: string = randomUUID();
  let store: DatabaseRunJournal | null = null;
  if (db) {
    const held = await heldRun(db, workflow);
    runId = held.runId;
    store = await DatabaseRunJournal.open(db, runId, held.holder);
  }
  const started = performance.now();
  const outcome = await runWorkflow({ runId, workflowId: null, workflow, input: { question: "go" }, sink: store ?? new MemorySink(), ...(store ? { journal: store } : {}), env });
  const ms = performance.now() - started;
  if (outcome.status !== "completed") throw new Error(`a bench run ended ${outcome.status}: ${outcome.error}`);
  return { ms, rows: db ? await rowsOf(db, [runId]) : 0 };
}

/** `calls` lookups, `perTurn` to a turn, each query the topic the last result linked. */
function scriptOf(calls: number, perTurn: number): ScriptedTurn[] {
  const turns = Array.from({ length: Math.ceil(calls / perTurn) }, (_, turn) => ({
    toolCalls: Array.from({ length: Math.min(perTurn, calls - turn * perTurn) }, (_, index) => ({ name: "lookup", arguments: { query: benchQuery(turn * perTurn + index + 1) } })),
  }));
  return [...turns, { text: "done" }];
}

/** The same calls by hand: one SDK client, connect, call, close. */
async function clientLoop(calls: number): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: "bench-loop", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  for (let call = 1; call <= calls; call++) {
    const result = await client.callTool({ name: "lookup", arguments: { query: benchQuery(call) } });
    if ((result.content as Array<{ text: string }>)[0].text.length === 0) throw new Error("an empty answer");
  }
  await client.close();
  return performance.now() - started;
}

/**
 * µs per call at `calls`, for each kind: the mean run's time less a run
 * that makes no call (median of 3), over the calls; the median of 3
 * samples. The kinds take turns within each round, so a load that moves
 * during the bench moves them alike. A sample of a small size runs it
 * several times (some 2,000 calls in all), so the run's fixed cost does not
 * drown the per-call figure in noise.
 */
async function perCall(measured: readonly Kind[], calls: number): Promise<Map<Kind, number>> {
  const runs = Math.min(20, Math.max(1, Math.round(2000 / calls)));
  const samples = new Map(measured.map((kind) => [kind, [] as number[]]));
  for (let round = 0; round < 3; round++) {
    for (const kind of measured) {
      const fixed = median([(await engineRun(kind, 0)).ms, (await engineRun(kind, 0)).ms, (await engineRun(kind, 0)).ms]);
      let total = 0;
      for (let run = 0; run < runs; run++) total += (await engineRun(kind, calls)).ms;
      samples.get(kind)!.push(((total / runs - fixed) * 1000) / calls);
    }
  }
  return new Map([...samples].map(([kind, values]) => [kind, median(values)]));
}

console.log(`outside MCP server at ${url} (a process of its own); ${load()} at the start`);
if (part("scaling")) {
  for (const kind of kinds) await engineRun(kind, Math.min(1000, sizes[0] * 10)); // warm-up
  await clientLoop(200);

  console.log(`\nper-call cost of the engine, in-memory sink (µs per call, medians of 3; × the ${sizes[0].toLocaleString("en-US")}-call figure):`);
  const figures = new Map<string, number>();
  for (const size of sizes) {
    const line = [`${size.toLocaleString("en-US")} calls`.padEnd(13)];
    const measured = await perCall(kinds.filter((kind) => kind !== "http" || httpSizes.includes(size)), size);
    for (const kind of kinds) {
      const figure = measured.get(kind);
      if (figure === undefined) {
        line.push(`${kind} (not run)`.padEnd(30));
        continue;
      }
      figures.set(`${kind} ${size}`, figure);
      line.push(`${kind} ${figure.toFixed(1).padStart(7)} (${(figure / figures.get(`${kind} ${sizes[0]}`)!).toFixed(2)}x)`.padEnd(30));
    }
    const custom = figures.get(`custom ${size}`)!;
    const ratios = (["http", "in-process"] as const).filter((kind) => figures.has(`${kind} ${size}`)).map((kind) => `${kind} ${(figures.get(`${kind} ${size}`)! / custom).toFixed(2)}x`);
    console.log(`  ${line.join(" ")} outside/custom: ${ratios.join(", ")} (${load()})`);
  }
  const largest = sizes.at(-1)!;
  const growth = (kind: Kind) => {
    const top = [...sizes].reverse().find((size) => figures.has(`${kind} ${size}`))!;
    return `${kind} ${(figures.get(`${kind} ${top}`)! / figures.get(`${kind} ${sizes[0]}`)!).toFixed(2)}x at ${top.toLocaleString("en-US")}`;
  };
  for (const kind of ["in-process", "http"] as const) {
    if (!figures.has(`${kind} ${largest}`)) continue;
    const ratio = figures.get(`${kind} ${largest}`)! / figures.get(`custom ${largest}`)!;
    console.log(`  target: outside (${kind}) under 2x custom at ${largest.toLocaleString("en-US")} calls: ${ratio.toFixed(2)}x ${ratio < 2 ? "met" : "MISSED"}`);
  }
  console.log(`  target: per-call cost within 1.3x of the ${sizes[0].toLocaleString("en-US")}-call figure: ${kinds.map(growth).join("; ")}`);
}

const { stores, dispose } = await benchDatabases();
if (part("loop")) {
  console.log(`\n${loopCalls.toLocaleString("en-US")} outside calls over HTTP against a hand-written MCP client loop (whole runs, medians of 3):`);
  const stages: Array<[string, SqlDatabase | null, number]> = [["in-memory sink", null, 3], ...stores.map(([label, db]) => [label, db, 4] as [string, SqlDatabase, number])];
  for (const [label, db, target] of stages) {
    const ratios: number[] = [];
    const runs: number[] = [];
    for (let round = 0; round < 3; round++) {
      const before = await clientLoop(loopCalls);
      const run = (await engineRun("http", loopCalls, db)).ms;
      const after = await clientLoop(loopCalls);
      runs.push(run);
      ratios.push(run / ((before + after) / 2));
    }
    const figure = median(ratios);
    console.log(`  ${label.padEnd(15)} ${(median(runs) / 1000).toFixed(2)} s = ${figure.toFixed(2)}x the loop (target < ${target}x: ${figure < target ? "met" : "MISSED"}) (${load()})`);
  }
}

/** Rows per second of one transaction of 10,000 trace rows with their steps, through the journal's own writer. */
async function ceiling(db: SqlDatabase): Promise<number> {
  const { runId, holder } = await heldRun(db, workflowFor("in-process", 1));
  const store = await DatabaseRunJournal.open(db, runId, holder);
  const count = 10_000;
  const recordedAt = new Date();
  const entries = Array.from({ length: count }, (_, index) => {
    const key = `agent#1/t${index}/c0`;
    const row = { id: randomUUID(), runId, nodeRunId: null, tool: "lookup", server: "outside", caller: "agent", arguments: { query: benchQuery(index) }, result: lookupPage(benchQuery(index)), error: null, isError: false, tainted: true, startedAt: recordedAt.toISOString(), durationMs: 0, inputTokens: null, outputTokens: null, stepKey: key };
    return { step: { key, kind: "tool-call" as const, value: { outcome: { output: row.result, isError: false } } }, rows: { toolCalls: [row], taint: [] }, recordedAt, repeatable: true };
  });
  const started = performance.now();
  await store.recordSteps(entries);
  return count / ((performance.now() - started) / 1000);
}

if (!quick && part("journal")) {
  console.log(`\njournal rows/s during a ${journalCalls.toLocaleString("en-US")}-call in-process outside run, against the driver's 10,000-row single-transaction ceiling (medians of 3):`);
  const shapes: Array<[string, number]> = [["20 calls per turn (scripted model, run-writes' shape)", 20], ...(process.argv.includes("--journal-sdk") ? ([["1 call per turn (AI SDK adapter)", 1]] as Array<[string, number]>) : [])];
  for (const [label, db] of stores) {
    const ceilings: number[] = [];
    const rates = new Map(shapes.map(([shape]) => [shape, [] as number[]]));
    for (let round = 0; round < 3; round++) {
      ceilings.push(await ceiling(db));
      for (const [shape, perTurn] of shapes) {
        const { ms, rows } = await engineRun("in-process", journalCalls, db, perTurn);
        rates.get(shape)!.push(rows / (ms / 1000));
      }
    }
    console.log(`  ${label}: ceiling ${Math.round(median(ceilings))} rows/s (${load()})`);
    for (const [shape, figures] of rates) {
      const share = median(figures) / median(ceilings);
      console.log(`    ${shape.padEnd(54)} ${Math.round(median(figures))} rows/s = ${(share * 100).toFixed(0)}% of it (target ≥ 50%: ${share >= 0.5 ? "met" : "MISSED"})`);
    }
  }
}

await dispose();
await nodes.remove();
serverProcess.kill("SIGTERM");
process.exit(0);
