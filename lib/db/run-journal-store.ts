import { hash } from "node:crypto";
import { type JournalEntry, JournalUnavailableError, type RecordedStep, type RunJournal, type StepRows } from "../engine";
import type { NodeEndEvent, NodeStartEvent, RunEndEvent, RunSink, RunStartEvent, TaintRecord, ToolCallRow } from "../trace";
import { toJsonText } from "./json-text";
import { CallsWritten, addTurn, emptyDelta, storedDuration, totalStatements, turnFactsOf, turnStepColumns, turnStepValues } from "./run-aggregates";
import { GuardFailedError, type SqlDatabase, type SqlStatement, type TransactionOptions } from "./sql/sql-database";

/**
 * Who writes a run: the worker that claimed it, and the run's resumeCount
 * that claim set. Every claim after the first adds one to resumeCount, so
 * the pair is a fencing token: once another worker has taken the run over,
 * the old holder's writes are refused in their own transaction.
 */
export interface RunHolder {
  workerId: string;
  resumeCount: number;
}

/** A write refused because another worker took the run over (this one's lease had expired): nothing of it was written. */
export class RunTakenOverError extends JournalUnavailableError {
  override name = "RunTakenOverError";
}

/**
 * A run's sink and journal on the database, in one object: the trace rows
 * (NodeRun, ToolCall, TaintRecord) and the journal (RunStep, and the
 * ToolCall rows' `stepKey` / `outcome`) are the same rows, so there is one
 * source of truth. A step commits with the rows it wrote, in one
 * transaction; steps safe to repeat that the recorder batched commit
 * together (recordSteps), with what they add to the run's totals and each
 * turn's place (lib/db/run-aggregates.ts). Nothing is read back. Writing a row again (a resumed run
 * meets the same node run, a replayed taint entry) changes nothing: ids are
 * stable and inserts ignore what is already there.
 *
 * @example
 * const store = await DatabaseRunJournal.open(db, runId);
 * await runWorkflow({ ..., sink: store, journal: store });
 */
export class DatabaseRunJournal implements RunSink, RunJournal {
  private constructor(
    private readonly db: SqlDatabase,
    private readonly runId: string,
    private readonly steps: Map<string, RecordedStep>,
    private sequence: number,
    /** The run's resume count: each row says in which attempt it was written. */
    private readonly attempt: number,
    /** The check every write transaction starts with, when a worker holds the run. */
    private readonly fence: SqlStatement | null,
    /** Each node run's calls written so far: a turn's place among them. */
    private readonly callsWritten: CallsWritten,
    /** The run's count of node-run changes (starts and ends): a live page's cursor for node runs. */
    private nodeRunChanges: number,
  ) {}

  /**
   * Reads what the run has recorded so far (nothing for a new run). With a
   * holder (a worker's claim), every write is fenced: it commits only while
   * that claim still holds the run.
   */
  static async open(db: SqlDatabase, runId: string, holder?: RunHolder): Promise<DatabaseRunJournal> {
    try {
      const [run] = await db.query<{ resumeCount: number }>(`SELECT "resumeCount" FROM "Run" WHERE "id" = ?`, [runId]);
      const steps = new Map<string, RecordedStep>();
      // A test run's cassette is stored beside its steps and is no step: the run reads it once, on its own (./test-cassettes.ts).
      for (const row of await db.query<{ key: string; kind: RecordedStep["kind"]; value: string }>(`SELECT "key", "kind", "value" FROM "RunStep" WHERE "runId" = ? AND "kind" <> 'cassette'`, [runId])) {
        steps.set(row.key, { key: row.key, kind: row.kind, value: JSON.parse(row.value) });
      }
      const calls = await db.query<{ stepKey: string; outcome: string | null }>(`SELECT "stepKey", "outcome" FROM "ToolCall" WHERE "runId" = ? AND "stepKey" IS NOT NULL`, [runId]);
      for (const row of calls) if (row.outcome) steps.set(row.stepKey, { key: row.stepKey, kind: "tool-call", value: JSON.parse(row.outcome) });
      const [last] = await db.query<{ sequence: number | null; nodeRunChanges: number | null }>(
        `SELECT MAX("sequence") AS "sequence", (SELECT MAX("changeSequence") FROM "NodeRun" WHERE "runId" = ?) AS "nodeRunChanges" FROM (SELECT "sequence" FROM "ToolCall" WHERE "runId" = ? UNION ALL SELECT "sequence" FROM "TaintRecord" WHERE "runId" = ? UNION ALL SELECT "sequence" FROM "RunStep" WHERE "runId" = ?) AS rows`,
        [runId, runId, runId, runId],
      );
      const perNodeRun = await db.query<{ nodeRunId: string; count: number | string }>(`SELECT "nodeRunId", COUNT(*) AS "count" FROM "ToolCall" WHERE "runId" = ? AND "nodeRunId" IS NOT NULL GROUP BY "nodeRunId"`, [runId]);
      const callsWritten = new CallsWritten(perNodeRun.map((row) => [row.nodeRunId, Number(row.count)] as const));
      return new DatabaseRunJournal(db, runId, steps, Number(last?.sequence ?? 0), holder?.resumeCount ?? Number(run?.resumeCount ?? 0), holder ? fenceOf(db, runId, holder) : null, callsWritten, Number(last?.nodeRunChanges ?? 0));
    } catch (error) {
      throw unavailable("read the run's journal", error);
    }
  }

  lookup(key: string): RecordedStep | undefined {
    return this.steps.get(key);
  }

  async record(step: RecordedStep, rows?: StepRows): Promise<void> {
    await this.recordSteps([{ step, rows: rows ?? { toolCalls: [], taint: [] }, recordedAt: new Date(), repeatable: false }]);
  }

  /**
   * The steps and their rows in one transaction, in order (one fence for
   * all): each table's rows in multi-row inserts, numbered in the order the
   * steps were taken.
   */
  async recordSteps(entries: ReadonlyArray<JournalEntry>): Promise<void> {
    const calls: unknown[][] = [];
    const steps: unknown[][] = [];
    const taint: unknown[][] = [];
    const turns = emptyDelta();
    for (const { step, rows, recordedAt } of entries) {
      rows.toolCalls.forEach((row, index) => calls.push(this.toolCallValues(row, index === 0 && step.kind === "tool-call" ? step.value : undefined)));
      if (step.kind !== "tool-call" || rows.toolCalls.length === 0) {
        // A step already recorded is not written again (the insert ignores it), so it adds nothing.
        const turn = this.steps.has(step.key) ? null : turnFactsOf(step.kind, step.value);
        if (turn) addTurn(turns, turn);
        steps.push([this.runId, step.key, step.kind, toJsonText(step.value), this.attempt, recordedAt, (this.sequence += 1), ...turnStepValues(turn, turn ? this.callsWritten.of(turn.nodeRunId) : 0)]);
      }
      for (const record of rows.taint) taint.push(this.taintValues(record));
    }
    const totals = totalStatements(this.runId, entries.flatMap((entry) => entry.rows.toolCalls), turns);
    const keys = entries.map((entry) => entry.step.key);
    // A step something not safe to repeat waits for must survive the database server's crash too.
    const durable = entries.some((entry) => !entry.repeatable);
    await this.commit(keys.length === 1 ? `record step ${keys[0]}` : `record steps ${keys[0]} to ${keys.at(-1)}`, [
      ...rowsInsert(toolCallInsert, calls),
      ...rowsInsert(runStepInsert, steps),
      ...rowsInsert(taintInsert, taint),
      ...totals,
    ], { durable });
    for (const { step } of entries) this.steps.set(step.key, step);
  }

  async runStart(event: RunStartEvent): Promise<void> {
    // The row was written when the run was queued; a resumed run keeps its first start time.
    await this.commit("record the start of the run", [[`UPDATE "Run" SET "status" = 'running', "input" = ?, "endedAt" = NULL, "error" = NULL, "attention" = NULL WHERE "id" = ?`, [toJsonText(event.input), event.runId]]]);
  }

  async nodeStart(event: NodeStartEvent): Promise<void> {
    await this.commit(`record the start of node "${event.nodeId}"`, [
      [
        `INSERT INTO "NodeRun" ("id", "runId", "nodeId", "nodeType", "parentToolCallId", "status", "turns", "inputs", "outputs", "taintedOutputs", "startedAt", "changeSequence")
         VALUES (?, ?, ?, ?, ?, 'running', 0, ?, '{}', '[]', ?, ?)
         ON CONFLICT ("id") DO UPDATE SET "status" = 'running', "inputs" = excluded."inputs", "endedAt" = NULL, "error" = NULL, "changeSequence" = excluded."changeSequence"`,
        [event.nodeRunId, event.runId, event.nodeId, event.nodeType, event.parentToolCallId, toJsonText(event.inputs), new Date(event.startedAt), (this.nodeRunChanges += 1)],
      ],
    ]);
  }

  async toolCall(row: ToolCallRow): Promise<void> {
    await this.commit(`record the call of tool "${row.tool}"`, [...rowsInsert(toolCallInsert, [this.toolCallValues(row, undefined)]), ...totalStatements(this.runId, [row])]);
  }

  async nodeEnd(event: NodeEndEvent): Promise<void> {
    await this.commit("record the end of a node run", [
      [
        `UPDATE "NodeRun" SET "status" = ?, "outputs" = ?, "taintedOutputs" = ?, "error" = ?, "turns" = ?, "endedAt" = ?, "changeSequence" = ? WHERE "id" = ?`,
        [event.status, toJsonText(event.outputs), toJsonText(event.taintedOutputs ?? []), event.error, event.turns, new Date(event.endedAt), (this.nodeRunChanges += 1), event.nodeRunId],
      ],
    ]);
  }

  async taintRecord(record: TaintRecord): Promise<void> {
    await this.commit(`record where external content went (${record.kind})`, rowsInsert(taintInsert, [this.taintValues(record)]));
  }

  async runEnd(event: RunEndEvent): Promise<void> {
    const waiting = event.status === "needs-attention";
    await this.commit("record the end of the run", [
      [
        `UPDATE "Run" SET "status" = ?, "outputs" = ?, "error" = ?, "endedAt" = ?, "attention" = ?, "leaseExpiresAt" = NULL WHERE "id" = ?`,
        [event.status, toJsonText(event.outputs), event.error, waiting ? null : new Date(event.endedAt), event.attention ? toJsonText(event.attention) : null, event.runId],
      ],
    ], { durable: true }); // what tasks, webhooks and people act on: it must outlive the database server's crash
  }

  private toolCallValues(row: ToolCallRow, outcome: unknown): unknown[] {
    this.callsWritten.add(row.nodeRunId);
    return [
      row.id, row.runId, row.nodeRunId, row.tool, row.server, row.caller, toJsonText(row.arguments),
      row.result === null || row.result === undefined ? null : toJsonText(row.result), row.error, row.isError, row.tainted,
      new Date(row.startedAt), storedDuration(row.durationMs), row.inputTokens, row.outputTokens, (this.sequence += 1),
      row.stepKey ?? null, outcome === undefined ? null : toJsonText(outcome), this.attempt,
    ];
  }

  private taintValues(record: TaintRecord): unknown[] {
    const common = [stableTaintId(record), record.runId, record.kind, record.nodeId, record.nodeRunId, new Date(record.recordedAt), (this.sequence += 1)];
    const detail =
      record.kind === "tool-result"
        ? [record.source, record.server, record.tool, record.toolCallId, null, null, "[]"]
        : record.kind === "memory-key"
          ? [null, null, null, record.toolCallId, record.key, null, toJsonText(record.origins)]
          : [null, null, null, null, null, record.output, toJsonText(record.origins)];
    return [...common, ...detail];
  }

  private async commit(action: string, statements: ReadonlyArray<SqlStatement>, options?: TransactionOptions): Promise<void> {
    try {
      await this.db.transaction(this.fence ? [this.fence, ...statements] : statements, options);
    } catch (error) {
      if (error instanceof GuardFailedError) throw new RunTakenOverError(`could not ${action}: ${error.message}`, { cause: error });
      throw unavailable(action, error);
    }
  }
}

/** An insert of one table's rows: its columns, and what a row already there (a resumed run's) leaves alone. */
interface RowsInsert {
  table: string;
  columns: readonly string[];
  conflict: string;
}

const toolCallInsert: RowsInsert = {
  table: "ToolCall",
  columns: ["id", "runId", "nodeRunId", "tool", "server", "caller", "arguments", "result", "error", "isError", "tainted", "startedAt", "durationMs", "inputTokens", "outputTokens", "sequence", "stepKey", "outcome", "attempt"],
  conflict: `ON CONFLICT ("id") DO NOTHING`,
};
const runStepInsert: RowsInsert = { table: "RunStep", columns: ["runId", "key", "kind", "value", "attempt", "recordedAt", "sequence", ...turnStepColumns], conflict: `ON CONFLICT ("runId", "key") DO NOTHING` };
const taintInsert: RowsInsert = {
  table: "TaintRecord",
  columns: ["id", "runId", "kind", "nodeId", "nodeRunId", "recordedAt", "sequence", "source", "server", "tool", "toolCallId", "key", "output", "origins"],
  conflict: `ON CONFLICT ("id") DO NOTHING`,
};

/** Rows per insert statement: a batch's rows go in a few statements, and each table has at most this many statement texts to prepare. */
const rowsPerInsert = 16;

/** The rows as multi-row inserts of at most rowsPerInsert rows each (none for no rows). */
function rowsInsert(insert: RowsInsert, rows: ReadonlyArray<readonly unknown[]>): SqlStatement[] {
  const statements: SqlStatement[] = [];
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    const chunk = rows.slice(start, start + rowsPerInsert);
    statements.push([insertText(insert, chunk.length), chunk.flat()]);
  }
  return statements;
}

const insertTexts = new Map<RowsInsert, string[]>();

/** The statement text for that many rows of the table, built once. */
function insertText(insert: RowsInsert, count: number): string {
  const texts = insertTexts.get(insert) ?? [];
  insertTexts.set(insert, texts);
  texts[count] ??= `INSERT INTO "${insert.table}" (${insert.columns.map((column) => `"${column}"`).join(", ")}) VALUES ${Array(count).fill(`(${insert.columns.map(() => "?").join(", ")})`).join(", ")} ${insert.conflict}`;
  return texts[count];
}

/**
 * The fencing check: the Run row still names this claim. On Postgres the row
 * is locked (FOR SHARE) until the step commits, so a takeover's claim waits
 * for it and then sees the step; a step after the takeover finds a new
 * resumeCount and is refused. On SQLite the transaction holds the write lock
 * from its start (BEGIN IMMEDIATE), which orders it against the claim.
 */
function fenceOf(db: SqlDatabase, runId: string, holder: RunHolder): SqlStatement {
  const lock = db.dialect === "postgres" ? " FOR SHARE" : "";
  return [
    `SELECT 1 AS "held" FROM "Run" WHERE "id" = ? AND "workerId" = ? AND "resumeCount" = ?${lock}`,
    [runId, holder.workerId, holder.resumeCount],
    { reason: `another worker took the run over (the lease of ${holder.workerId} had expired); this worker's write was refused` },
  ];
}

/** The same taint entry written again on resume has the same id. */
function stableTaintId(record: TaintRecord): string {
  const what = record.kind === "tool-result" ? record.toolCallId : record.kind === "memory-key" ? `${record.key}:${record.toolCallId}` : record.output;
  return hash("sha256", `${record.runId}|${record.kind}|${record.nodeRunId}|${what}`, "hex").slice(0, 32);
}

function unavailable(action: string, error: unknown): JournalUnavailableError {
  const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new JournalUnavailableError(`could not ${action}: ${reason}`, { cause: error });
}
