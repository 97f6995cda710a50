/**
 * Commands on runs recorded in the app's database (DATABASE_URL):
 *   diff RUN_A RUN_B [--json] [--all]   the two runs lined up step by step (lib/trace/run-diff.ts);
 *     long runs of identical steps fold into one line unless --all.
 *     Exit 0 when they agree step for step, 1 when they differ (like diff(1)), 2 for bad input.
 *   export-otel RUN_ID [--file OUT.json] [--capture-content]
 *     The run as OpenTelemetry spans (GenAI conventions), an OTLP/JSON export request
 *     (what POST /v1/traces takes), written to the file or printed. Arguments and results
 *     only with --capture-content (or SWITCHBOARD_OTEL_CAPTURE_CONTENT=true).
 *   fork RUN_ID --at STEP_KEY [--result JSON | --prompt TEXT | --model ID | --document FILE.json] [--json]
 *     A new run, queued, that replays RUN_ID's journal up to the step and goes on live with
 *     one change: the step's value replaced (--result), the step's agent's system prompt or
 *     model from there on (the step, when a model turn, asked again), or another document
 *     (replayed nodes must be unchanged in it); a worker takes it (lib/db/run-fork.ts).
 * Bad input (an unknown run, the same run twice, a run still running): one line on stderr, exit 2.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createPrismaClient, type PrismaClient, databaseUrl, readWholeRunTrace, checkRunDatabase } from "../lib/db";
import { readFile, writeFile } from "node:fs/promises";
import { describeForkChange } from "../lib/run-model/fork-change";
import { otlpJson, traceSpans, compareRuns, type RunDiff, describeDiff } from "../lib/trace";
import { closeProcessRuns, runService } from "../lib/runs";
import { commandUser } from "./command-user";

/** A problem with the command line or its input: printed as one line, exit 2. */
export class RecordedRunsUsageError extends Error {}

export async function runDiffCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { json: { type: "boolean", default: false }, all: { type: "boolean", default: false } }, allowPositionals: true });
  if (positionals.length !== 2) throw new RecordedRunsUsageError("usage: npm run workflow -- diff RUN_A RUN_B [--json] [--all]");
  return withDatabase(async (db) => {
    const outcome = await compareRuns(positionals[0], positionals[1], (id) => readWholeRunTrace(db, id));
    if (!outcome.ok) throw new RecordedRunsUsageError(`diff: ${outcome.problem.message}`);
    console.log(values.json ? JSON.stringify(outcome.diff, null, 2) : describeDiff(outcome.diff, { all: values.all }));
    return differs(outcome.diff) ? 1 : 0;
  });
}

export async function runExportOtelCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { file: { type: "string" }, "capture-content": { type: "boolean", default: false } }, allowPositionals: true });
  if (positionals.length !== 1) throw new RecordedRunsUsageError("usage: npm run workflow -- export-otel RUN_ID [--file OUT.json] [--capture-content]");
  const runId = positionals[0];
  const trace = await withDatabase((db) => readWholeRunTrace(db, runId));
  if (!trace) throw new RecordedRunsUsageError(`export-otel: There is no run "${runId}".`);
  if (trace.run.status === "running" || !trace.run.endedAt) throw new RecordedRunsUsageError(`export-otel: run "${runId}" is still running; export it once it has ended.`);
  const captureContent = values["capture-content"] || process.env.SWITCHBOARD_OTEL_CAPTURE_CONTENT === "true";
  const spans = traceSpans(trace, { captureContent, workflowName: trace.run.workflowName });
  const json = await otlpJson(spans);
  if (!values.file) {
    console.log(json);
    return 0;
  }
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.file);
  try {
    await writeFile(file, `${json}\n`);
  } catch (error) {
    throw new RecordedRunsUsageError(`export-otel: cannot write ${values.file}: ${(error as Error).message}`);
  }
  console.log(`wrote ${spans.length} spans of run ${runId} to ${values.file}`);
  return 0;
}

export async function runForkCommand(argv: string[]): Promise<number> {
  const usage = "usage: npm run workflow -- fork RUN_ID --at STEP_KEY [--result JSON | --prompt TEXT | --model ID | --document FILE.json] [--json]";
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { at: { type: "string" }, result: { type: "string" }, prompt: { type: "string" }, model: { type: "string" }, document: { type: "string" }, json: { type: "boolean", default: false } }, allowPositionals: true });
  } catch (error) {
    throw new RecordedRunsUsageError(`fork: ${(error as Error).message}\n${usage}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || !values.at) throw new RecordedRunsUsageError(usage);
  let document: { source: "file"; text: string } | undefined;
  if (values.document !== undefined) {
    const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.document);
    try {
      document = { source: "file", text: await readFile(file, "utf8") };
    } catch (error) {
      throw new RecordedRunsUsageError(`fork: cannot read ${values.document}: ${(error as Error).message}`);
    }
  }
  const url = databaseUrl();
  const problem = await checkRunDatabase(url);
  if (problem) throw new RecordedRunsUsageError(`fork: ${problem}`);
  try {
    const request = {
      runId: positionals[0],
      at: values.at,
      ...(values.result === undefined ? {} : { result: values.result }),
      ...(values.prompt === undefined ? {} : { prompt: values.prompt }),
      ...(values.model === undefined ? {} : { model: values.model }),
      ...(document ? { document } : {}),
    };
    // The node types the workers run with (SWITCHBOARD_NODES_DIR, as scripts/worker.ts reads it; else nodes/).
    const forked = await runService().fork({ ...request, by: commandUser() });
    if (!forked.ok) throw new RecordedRunsUsageError(`fork: ${forked.error}`);
    console.log(
      values.json
        ? JSON.stringify({ runId: forked.runId, forkedFrom: positionals[0], at: values.at, change: forked.change, status: "queued" })
        : `${forked.runId} (forked from ${positionals[0]} at ${values.at} ${describeForkChange(forked.change)}, queued: a worker takes it up)`,
    );
    return 0;
  } finally {
    await closeProcessRuns();
  }
}

function differs(diff: RunDiff): boolean {
  return diff.firstDivergence !== null || diff.input.length > 0 || diff.outputs.length > 0;
}

/** The app's database, closed afterwards; a clear message when it does not exist yet. */
export async function withDatabase<T>(work: (db: PrismaClient) => Promise<T>): Promise<T> {
  const url = databaseUrl();
  if (url.startsWith("file:") && !existsSync(path.resolve(url.slice("file:".length)))) {
    throw new RecordedRunsUsageError(`there is no database at ${url.slice("file:".length)} yet: runs are recorded when the app runs them (npm start)`);
  }
  const db = createPrismaClient(url);
  try {
    return await work(db);
  } finally {
    await db.$disconnect();
  }
}
