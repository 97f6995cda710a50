import { randomUUID } from "node:crypto";
import { DatasetStore, type EvaluationRecord, EvaluationStore, type ListedRunTotals, isoFromSql } from "../db";
import { type DatasetRow, type EndedRowRun, type EvaluationPorts, type EvaluationSummary, runEvaluationLoop, type ScoreContext } from "../evals";
import { type EntryField, parseWorkflow, startFields } from "../graph";
import { settledStatuses } from "../run-model";
import { idempotencyKey } from "./once-keys";
import type { RunService } from "./run-service";
import { judgeContext } from "./test-cases";

/** A row's key counts for as long as the evaluation may be resumed: ten years. */
const rowKeyLifetimeMs = 10 * 365 * 24 * 60 * 60 * 1000;

/** Why an evaluation cannot begin: the person asking can fix it. */
export class EvaluationRequestError extends Error {
  override name = "EvaluationRequestError";
  constructor(
    readonly code: "no-workflow" | "no-version" | "no-dataset",
    message: string,
  ) {
    super(message);
  }
}

/**
 * The evaluation of a dataset on a version of a workflow (no version: its
 * document as it stands now): the unfinished one of the same dataset and
 * version when there is one, to resume, else a new one with the document
 * and the workflow's scorers frozen into it.
 */
export async function beginEvaluation(service: RunService, request: { workflowId: string; datasetId: string; version: number | null; by: string | null }): Promise<{ evaluation: EvaluationRecord; resumed: boolean }> {
  const evaluations = new EvaluationStore(service.db);
  const datasets = new DatasetStore(service.db);
  const dataset = await datasets.dataset(request.datasetId);
  if (!dataset || dataset.workflowId !== request.workflowId) throw new EvaluationRequestError("no-dataset", `workflow ${request.workflowId} has no dataset ${request.datasetId}`);
  const unfinished = await evaluations.unfinished(request.workflowId, request.datasetId, request.version);
  if (unfinished) return { evaluation: unfinished, resumed: true };
  const [row] =
    request.version === null
      ? await service.db.query<{ document: string }>(`SELECT "document" FROM "Workflow" WHERE "id" = ?`, [request.workflowId])
      : await service.db.query<{ document: string }>(`SELECT "document" FROM "WorkflowVersion" WHERE "workflowId" = ? AND "number" = ?`, [request.workflowId, request.version]);
  if (!row) {
    throw request.version === null ? new EvaluationRequestError("no-workflow", `there is no workflow ${request.workflowId}`) : new EvaluationRequestError("no-version", `workflow ${request.workflowId} has no version ${request.version}`);
  }
  const id = randomUUID();
  await evaluations.create({ id, workflowId: request.workflowId, datasetId: request.datasetId, version: request.version, document: JSON.parse(row.document), scorers: await datasets.scorers(request.workflowId), by: request.by });
  return { evaluation: (await evaluations.evaluation(id))!, resumed: false };
}

export interface RunEvaluationOptions {
  /** Tokens and cost of ended runs (lib/db/run-totals.ts's readRunTotals over a Prisma client). */
  totals: (runIds: readonly string[]) => Promise<Map<string, ListedRunTotals>>;
  /** Rows started and not yet scored, at most (default 16). */
  maxInFlight?: number;
  /** Replaces the judge of the evaluation's judge scorers (default: the model of the agent node each names, as pinned cases judge). */
  judge?: ScoreContext["judge"];
  signal?: AbortSignal;
  pollMs?: number;
  onRow?: (progress: { position: number; pass: boolean; done: number }) => void;
}

/**
 * Runs an evaluation's remaining rows through the queue (any worker takes
 * them), scores them and marks the evaluation completed. Each row's run is
 * started at most once (an idempotency key per row, written with the run
 * and the row's record in one transaction), so running it again after a
 * kill only finishes what was left.
 */
export async function runEvaluation(service: RunService, evaluation: EvaluationRecord, options: RunEvaluationOptions): Promise<{ summary: EvaluationSummary; stopped: boolean }> {
  const store = new EvaluationStore(service.db);
  const dataset = await new DatasetStore(service.db).dataset(evaluation.datasetId);
  if (!dataset) throw new EvaluationRequestError("no-dataset", `the dataset ${evaluation.datasetId} of evaluation ${evaluation.id} is gone`);
  const parsed = parseWorkflow(evaluation.document);
  const start = parsed.ok ? parsed.workflow.nodes.find((node) => node.type === "start") : undefined;
  const fields = start ? startFields(start.config) : [];
  const inputOf = (row: DatasetRow) => (dataset.format === "csv" ? typedCells(fields, row.input) : row.input);
  const ports: EvaluationPorts = {
    pending: (after, limit) => store.pending(evaluation, after, limit),
    start: async (row) => {
      const runId = randomUUID();
      const started = await service.start(
        { workflowId: evaluation.workflowId, document: evaluation.document, input: inputOf(row), origin: { kind: "eval", ...(evaluation.by ? { by: evaluation.by } : {}), evaluationId: evaluation.id, row: row.position }, runId },
        { once: idempotencyKey(`eval:${evaluation.id}`, `row:${row.position}`, rowKeyLifetimeMs), together: [store.startedRow(evaluation.id, row.position, runId)] },
      );
      if (!started.ok) return { ok: false, error: `${dataset.name}:${row.line}: ${started.field ? `${started.field}: ` : ""}${started.error}` };
      return { ok: true, runId: started.runId };
    },
    refused: (row, error) => store.refused(evaluation.id, row, error),
    ended: (runIds) => endedRuns(service, runIds, options.totals),
    scored: (row, run, verdict) => store.scored(evaluation.id, row, run, verdict),
  };
  const context = options.judge ? { judge: options.judge } : parsed.ok ? await judgeContext(evaluation.scorers, parsed.workflow) : {};
  const result = await runEvaluationLoop(ports, {
    scorers: evaluation.scorers,
    context,
    maxInFlight: options.maxInFlight ?? 16,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onRow ? { onRow: options.onRow } : {}),
  });
  if (!result.stopped) await store.finish(evaluation.id, "completed");
  return { summary: await store.summary(evaluation.id, dataset.rowCount), stopped: result.stopped };
}

/** Of these runs, those that have ended, with their run time (first node start to end: time in the queue left out), tokens and cost. */
async function endedRuns(service: RunService, runIds: readonly string[], totals: RunEvaluationOptions["totals"]): Promise<EndedRowRun[]> {
  if (runIds.length === 0) return [];
  const statuses = [...settledStatuses];
  const rows = await service.db.query<{ id: string; status: string; outputs: string; error: string | null; startedAt: unknown; endedAt: unknown; firstNodeAt: unknown }>(
    `SELECT r."id", r."status", r."outputs", r."error", r."startedAt", r."endedAt", (SELECT MIN(n."startedAt") FROM "NodeRun" n WHERE n."runId" = r."id") AS "firstNodeAt"
     FROM "Run" r WHERE r."id" IN (${runIds.map(() => "?").join(", ")}) AND r."status" IN (${statuses.map(() => "?").join(", ")})`,
    [...runIds, ...statuses],
  );
  if (rows.length === 0) return [];
  const figures = await totals(rows.map((row) => row.id));
  return rows.map((row) => {
    const from = row.firstNodeAt ?? row.startedAt;
    const total = figures.get(row.id);
    return {
      runId: row.id,
      status: row.status,
      outputs: JSON.parse(row.outputs || "{}") as Record<string, unknown>,
      error: row.error,
      durationMs: row.endedAt === null || row.endedAt === undefined ? null : Math.max(0, Date.parse(isoFromSql(row.endedAt)) - Date.parse(isoFromSql(from))),
      inputTokens: total?.inputTokens ?? null,
      outputTokens: total?.outputTokens ?? null,
      costUsd: total?.costUsd ?? null,
    };
  });
}

/**
 * A CSV row's cells are text: a cell for a Start field of another type is
 * read as JSON (`3`, `true`, `{"a": 1}`), and left as text when it is not
 * JSON (the run service then names the field).
 */
export function typedCells(fields: readonly EntryField[], input: Record<string, unknown>): Record<string, unknown> {
  const types = new Map(fields.map((field) => [field.name, field.type]));
  return Object.fromEntries(
    Object.entries(input).map(([name, value]) => {
      const type = types.get(name);
      if (typeof value !== "string" || type === undefined || type === "string" || type === "any") return [name, value];
      try {
        return [name, JSON.parse(value)];
      } catch {
        return [name, value];
      }
    }),
  );
}

const running = globalThis as typeof globalThis & { switchboardEvaluations?: Set<string> };

/**
 * Runs an evaluation in this server process without waiting for it (the
 * Tests page's Run evaluation): the rows' runs go through the queue like
 * any, and the page reads the progress from the database. An evaluation
 * this process already runs is not started twice; one left unfinished by a
 * killed process is resumed by starting it again.
 */
export function evaluateInBackground(service: RunService, evaluation: EvaluationRecord, options: RunEvaluationOptions): void {
  running.switchboardEvaluations ??= new Set();
  const here = running.switchboardEvaluations;
  if (here.has(evaluation.id)) return;
  here.add(evaluation.id);
  runEvaluation(service, evaluation, options)
    .catch(async (error: unknown) => {
      console.error(`evaluation ${evaluation.id} failed:`, error);
      await new EvaluationStore(service.db).finish(evaluation.id, "failed", (error as Error).message).catch(() => undefined);
    })
    .finally(() => here.delete(evaluation.id));
}
