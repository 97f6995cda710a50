import { type DatasetRow, type EndedRowRun, type EvaluationSummary, type PendingRow, type RowScore, type Scorer, summarizeEvaluation } from "../evals";
import { isoFromSql, type SqlDatabase, type SqlStatement } from "./sql/sql-database";

export type EvaluationStatus = "running" | "completed" | "failed";

/** An evaluation as the Tests page and the command line show it. */
export interface EvaluationRecord {
  id: string;
  workflowId: string;
  datasetId: string;
  /** The saved version run; null for the document as it stood at the start. */
  version: number | null;
  document: unknown;
  scorers: Scorer[];
  status: EvaluationStatus;
  error: string | null;
  by: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** One side of a row in the per-row diff: its run, verdict and outputs in one evaluation. */
export interface EvaluationRowSide {
  runId: string | null;
  pass: boolean | null;
  score: number | null;
  outputs: Record<string, unknown> | null;
  /** The failed scorers' reasons, or the run's error. */
  reason: string;
}

/** A dataset row in two evaluations. */
export interface EvaluationRowPair {
  position: number;
  line: number;
  input: Record<string, unknown>;
  expected: unknown;
  a: EvaluationRowSide;
  b: EvaluationRowSide;
}

/**
 * Evaluations and their rows. A row is written when its run starts (in the
 * run's own transaction, see startedRow) and again when it is scored, so an
 * evaluation resumed after a kill knows which rows have runs already.
 */
export class EvaluationStore {
  constructor(private readonly db: SqlDatabase) {}

  async create(request: { id: string; workflowId: string; datasetId: string; version: number | null; document: unknown; scorers: readonly Scorer[]; by: string | null }): Promise<void> {
    await this.db.execute(
      `INSERT INTO "Evaluation" ("id", "workflowId", "datasetId", "version", "document", "scorers", "status", "by", "startedAt") VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?)`,
      [request.id, request.workflowId, request.datasetId, request.version, JSON.stringify(request.document), JSON.stringify(request.scorers), request.by, new Date()],
    );
  }

  async evaluation(id: string): Promise<EvaluationRecord | null> {
    const [row] = await this.db.query<EvaluationSqlRow>(`SELECT ${evaluationColumns} FROM "Evaluation" WHERE "id" = ?`, [id]);
    return row ? evaluationRecord(row) : null;
  }

  /** The unfinished evaluation of this dataset on this version, to resume rather than start again. */
  async unfinished(workflowId: string, datasetId: string, version: number | null): Promise<EvaluationRecord | null> {
    const [row] = await this.db.query<EvaluationSqlRow>(
      `SELECT ${evaluationColumns} FROM "Evaluation" WHERE "workflowId" = ? AND "datasetId" = ? AND "status" = 'running' AND ${version === null ? `"version" IS NULL` : `"version" = ?`} ORDER BY "startedAt" DESC LIMIT 1`,
      version === null ? [workflowId, datasetId] : [workflowId, datasetId, version],
    );
    return row ? evaluationRecord(row) : null;
  }

  /** A workflow's evaluations, oldest first (the table reads version by version), each with its summary. */
  async evaluations(workflowId: string): Promise<Array<EvaluationRecord & { datasetName: string; summary: EvaluationSummary }>> {
    const rows = await this.db.query<EvaluationSqlRow & { datasetName: string; rowCount: unknown }>(
      `SELECT ${evaluationColumns.replace(/"(\w+)"/g, 'e."$1"')}, d."name" AS "datasetName", d."rowCount" FROM "Evaluation" e JOIN "Dataset" d ON d."id" = e."datasetId" WHERE e."workflowId" = ? ORDER BY e."startedAt", e."id"`,
      [workflowId],
    );
    return Promise.all(rows.map(async (row) => ({ ...evaluationRecord(row), datasetName: row.datasetName, summary: await this.summary(row.id, Number(row.rowCount)) })));
  }

  /** An evaluation's figures: read column by column (no outputs), so a large evaluation costs little. */
  async summary(evaluationId: string, rowCount: number): Promise<EvaluationSummary> {
    const rows = await this.db.query<{ pass: unknown; score: unknown; durationMs: unknown; inputTokens: unknown; outputTokens: unknown; costUsd: unknown }>(
      `SELECT "pass", "score", "durationMs", "inputTokens", "outputTokens", "costUsd" FROM "EvaluationRow" WHERE "evaluationId" = ? AND "status" <> 'running'`,
      [evaluationId],
    );
    return summarizeEvaluation(
      rows.map((row) => ({ pass: Boolean(row.pass), score: numberOrNull(row.score), durationMs: numberOrNull(row.durationMs), inputTokens: numberOrNull(row.inputTokens), outputTokens: numberOrNull(row.outputTokens), costUsd: numberOrNull(row.costUsd) })),
      rowCount,
    );
  }

  async finish(id: string, status: Exclude<EvaluationStatus, "running">, error: string | null = null): Promise<void> {
    await this.db.execute(`UPDATE "Evaluation" SET "status" = ?, "error" = ?, "endedAt" = ? WHERE "id" = ?`, [status, error, new Date(), id]);
  }

  /** Dataset rows not scored yet in this evaluation, after a position, in order, with the run of those started before. */
  async pending(evaluation: { id: string; datasetId: string }, afterPosition: number, limit: number): Promise<PendingRow[]> {
    const rows = await this.db.query<{ position: unknown; line: unknown; input: string; expected: string | null; runId: string | null }>(
      `SELECT d."position", d."line", d."input", d."expected", e."runId" FROM "DatasetRow" d LEFT JOIN "EvaluationRow" e ON e."evaluationId" = ? AND e."position" = d."position"
       WHERE d."datasetId" = ? AND d."position" > ? AND (e."status" IS NULL OR e."status" = 'running') ORDER BY d."position" LIMIT ?`,
      [evaluation.id, evaluation.datasetId, afterPosition, limit],
    );
    return rows.map((row) => ({ row: datasetRow(row), runId: row.runId }));
  }

  /** The row's record, written in the same transaction as its run (RunService.start's `together`). */
  startedRow(evaluationId: string, position: number, runId: string): SqlStatement {
    return [`INSERT INTO "EvaluationRow" ("evaluationId", "position", "runId", "status") VALUES (?, ?, ?, 'running') ON CONFLICT DO NOTHING`, [evaluationId, position, runId]];
  }

  async refused(evaluationId: string, row: DatasetRow, error: string): Promise<void> {
    await this.db.execute(
      `INSERT INTO "EvaluationRow" ("evaluationId", "position", "status", "score", "pass", "error") VALUES (?, ?, 'refused', 0, ?, ?) ON CONFLICT ("evaluationId", "position") DO UPDATE SET "status" = 'refused', "score" = 0, "pass" = excluded."pass", "error" = excluded."error"`,
      [evaluationId, row.position, false, error],
    );
  }

  async scored(evaluationId: string, row: DatasetRow, run: EndedRowRun, verdict: RowScore): Promise<void> {
    await this.db.execute(
      `UPDATE "EvaluationRow" SET "status" = 'scored', "runId" = ?, "score" = ?, "pass" = ?, "scores" = ?, "outputs" = ?, "runStatus" = ?, "durationMs" = ?, "inputTokens" = ?, "outputTokens" = ?, "costUsd" = ?, "error" = ? WHERE "evaluationId" = ? AND "position" = ?`,
      [run.runId, verdict.score, verdict.pass, JSON.stringify(verdict.scores), JSON.stringify(run.outputs), run.status, run.durationMs, run.inputTokens, run.outputTokens, run.costUsd, verdict.error, evaluationId, row.position],
    );
  }

  /**
   * The rows of two evaluations of one dataset side by side, in dataset
   * order: with `onlyDifferent`, those whose verdict or outputs differ.
   * At most `limit` after `afterPosition`.
   */
  async rowPairs(a: string, b: string, options: { afterPosition?: number; limit: number; onlyDifferent: boolean }): Promise<EvaluationRowPair[]> {
    const different = options.onlyDifferent ? `AND (ra."pass" <> rb."pass" OR COALESCE(ra."outputs", '') <> COALESCE(rb."outputs", ''))` : "";
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT d."position", d."line", d."input", d."expected",
              ra."runId" AS "aRunId", ra."pass" AS "aPass", ra."score" AS "aScore", ra."outputs" AS "aOutputs", ra."scores" AS "aScores", ra."error" AS "aError",
              rb."runId" AS "bRunId", rb."pass" AS "bPass", rb."score" AS "bScore", rb."outputs" AS "bOutputs", rb."scores" AS "bScores", rb."error" AS "bError"
       FROM "EvaluationRow" ra JOIN "EvaluationRow" rb ON rb."evaluationId" = ? AND rb."position" = ra."position"
       JOIN "Evaluation" ea ON ea."id" = ra."evaluationId" JOIN "DatasetRow" d ON d."datasetId" = ea."datasetId" AND d."position" = ra."position"
       WHERE ra."evaluationId" = ? AND ra."status" <> 'running' AND rb."status" <> 'running' AND ra."position" > ? ${different}
       ORDER BY ra."position" LIMIT ?`,
      [b, a, options.afterPosition ?? -1, options.limit],
    );
    return rows.map((row) => {
      const base = datasetRow(row as { position: unknown; line: unknown; input: string; expected: string | null });
      const side = (prefix: "a" | "b"): EvaluationRowSide => ({
        runId: (row[`${prefix}RunId`] as string | null) ?? null,
        pass: row[`${prefix}Pass`] === null ? null : Boolean(row[`${prefix}Pass`]),
        score: numberOrNull(row[`${prefix}Score`]),
        outputs: row[`${prefix}Outputs`] ? (JSON.parse(row[`${prefix}Outputs`] as string) as Record<string, unknown>) : null,
        reason: reasonOf(row[`${prefix}Scores`] as string | null, row[`${prefix}Error`] as string | null),
      });
      return { position: base.position, line: base.line, input: base.input, expected: base.expected, a: side("a"), b: side("b") };
    });
  }
}

const evaluationColumns = `"id", "workflowId", "datasetId", "version", "document", "scorers", "status", "error", "by", "startedAt", "endedAt"`;

interface EvaluationSqlRow {
  id: string;
  workflowId: string;
  datasetId: string;
  version: unknown;
  document: string;
  scorers: string;
  status: string;
  error: string | null;
  by: string | null;
  startedAt: unknown;
  endedAt: unknown;
}

function evaluationRecord(row: EvaluationSqlRow): EvaluationRecord {
  return {
    id: row.id,
    workflowId: row.workflowId,
    datasetId: row.datasetId,
    version: row.version === null || row.version === undefined ? null : Number(row.version),
    document: JSON.parse(row.document),
    scorers: JSON.parse(row.scorers) as Scorer[],
    status: row.status === "completed" || row.status === "failed" ? row.status : "running",
    error: row.error,
    by: row.by,
    startedAt: isoFromSql(row.startedAt),
    endedAt: row.endedAt === null || row.endedAt === undefined ? null : isoFromSql(row.endedAt),
  };
}

function datasetRow(row: { position: unknown; line: unknown; input: string; expected: string | null }): DatasetRow {
  const base = { position: Number(row.position), line: Number(row.line), input: JSON.parse(row.input) as Record<string, unknown> };
  return row.expected === null ? base : { ...base, expected: JSON.parse(row.expected) };
}

/** The failed scorers' reasons (or the run's error), else all of them: what a reviewer reads first. */
function reasonOf(scores: string | null, error: string | null): string {
  if (error) return error;
  const list = scores ? (JSON.parse(scores) as Array<{ pass: boolean; reason: string }>) : [];
  const failed = list.filter((item) => !item.pass);
  return (failed.length > 0 ? failed : list).map((item) => item.reason).join("; ");
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
