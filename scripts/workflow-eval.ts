/**
 * `npm run workflow -- eval DATASET --workflow ID [--version V] [--json] [--window N] [--worker N]`
 *   Scores a dataset (JSONL or CSV) on a version of a workflow (no --version:
 *   its document as it stands): the file is stored as the workflow's dataset
 *   (the Tests page shows it), every row runs through the queue, so every
 *   worker shares the work (`npm start`'s, `npm run worker`s, or with
 *   --worker N a worker in this process), and the workflow's scorers score
 *   each row. Run it again after a kill and it resumes the unfinished
 *   evaluation of the same dataset and version, starting no row twice.
 *   Exit 0 when every row passed, 1 when one failed, 2 for bad input.
 */
import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { createPrismaClient, DatasetStore, databaseUrl, readRunTotals, checkRunDatabase, isPostgresUrl } from "../lib/db";
import { datasetFormatOf, DatasetRowError, type EvaluationSummary } from "../lib/evals";
import { beginEvaluation, closeProcessRuns, EvaluationRequestError, runEvaluation, runService, startWorkerRuntime, type WorkerRuntime } from "../lib/runs";

import { commandUser } from "./command-user";

export class EvalUsageError extends Error {}

const usage = "usage: npm run workflow -- eval DATASET.jsonl|DATASET.csv --workflow ID [--version V] [--json] [--window N] [--worker N]";

export async function runEvalCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { workflow: { type: "string" }, version: { type: "string" }, json: { type: "boolean", default: false }, window: { type: "string", default: "16" }, worker: { type: "string" } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!file || !values.workflow) throw new EvalUsageError(usage);
  const format = datasetFormatOf(file);
  if (!format) throw new EvalUsageError(`${file}: a dataset is a .jsonl (or .ndjson) or .csv file`);
  await access(file).catch(() => Promise.reject(new EvalUsageError(`cannot read ${file}`)));
  const version = values.version === undefined ? null : positiveInteger(values.version, "--version");
  const window = positiveInteger(values.window ?? "16", "--window");
  const workers = values.worker === undefined ? 0 : positiveInteger(values.worker, "--worker");
  const url = databaseUrl();
  const problem = await checkRunDatabase(url);
  if (problem && !isPostgresUrl(url)) {
    const { migrateDatabase } = await import("./prepare-app");
    await migrateDatabase(url, (line) => console.error(line));
  } else if (problem) throw new EvalUsageError(problem);
  const service = runService();
  const prisma = createPrismaClient(url);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let worker: WorkerRuntime | null = null;
  try {
    const [workflow] = await service.db.query<{ id: string }>(`SELECT "id" FROM "Workflow" WHERE "id" = ?`, [values.workflow]);
    if (!workflow) throw new EvalUsageError(`there is no workflow ${values.workflow}`);
    const stored = await new DatasetStore(service.db).save({ workflowId: values.workflow, name: path.basename(file), format, source: createReadStream(file) }).catch((error: unknown) => {
      throw error instanceof DatasetRowError ? new EvalUsageError(error.message.replace(path.basename(file), file)) : error;
    });
    const { evaluation, resumed } = await beginEvaluation(service, { workflowId: values.workflow, datasetId: stored.dataset.id, version, by: commandUser() }).catch((error: unknown) => {
      throw error instanceof EvaluationRequestError ? new EvalUsageError(error.message) : error;
    });
    console.error(`${resumed ? "resuming" : "evaluation"} ${evaluation.id}: ${stored.dataset.rowCount} rows of ${stored.dataset.name} on ${version === null ? "the current document" : `version ${version}`}`);
    if (workers > 0) worker = startWorkerRuntime({ databaseUrl: url, concurrency: workers, ticksSchedules: false, webhook: null, log: (line) => console.error(line) });
    let lastShown = Date.now();
    const { summary, stopped } = await runEvaluation(service, evaluation, {
      totals: (runIds) => readRunTotals(prisma, runIds),
      maxInFlight: window,
      signal: stop.signal,
      onRow: ({ done }) => {
        if (values.json || Date.now() - lastShown < 2000) return;
        lastShown = Date.now();
        console.error(`  ${done} rows scored`);
      },
    });
    if (values.json) console.log(JSON.stringify({ evaluationId: evaluation.id, resumed, stopped, dataset: stored.dataset, version, summary }, null, 2));
    else printSummary(evaluation.id, summary, stopped);
    if (stopped) return 1;
    return summary.passed === summary.rows ? 0 : 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await worker?.stop({ handBack: true });
    await prisma.$disconnect();
    await closeProcessRuns();
  }
}

function printSummary(evaluationId: string, summary: EvaluationSummary, stopped: boolean): void {
  const percent = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)}%`);
  const ms = (value: number | null) => (value === null ? "–" : `${value} ms`);
  console.log(`${stopped ? "stopped" : "scored"} ${summary.scored}/${summary.rows} rows: ${summary.passed} passed (${percent(summary.passRate)}), mean score ${summary.meanScore === null ? "–" : summary.meanScore.toFixed(3)}`);
  console.log(`tokens ${summary.inputTokens} in, ${summary.outputTokens} out; cost ${summary.costUsd === null ? "–" : `$${summary.costUsd.toFixed(4)}`}; time p50 ${ms(summary.p50Ms)}, p95 ${ms(summary.p95Ms)}`);
  console.log(stopped ? `run the same command again to resume evaluation ${evaluationId}` : `evaluation ${evaluationId}; the workflow's Tests page shows it row by row`);
}

function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new EvalUsageError(`${flag} must be a whole number ≥ 1, not ${JSON.stringify(text)}`);
  return value;
}
