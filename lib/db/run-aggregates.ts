import type { PrismaClient } from "./create-client";
import type { SqlStatement } from "./sql/sql-database";

/**
 * What the writers of a run's rows keep beside them, in the same
 * transaction, so the trace's reads never parse the model turns:
 * - a model-turn step's place (its node run, start, place among the node
 *   run's calls, the engine's count of the turn) as columns of its RunStep
 *   row, by which the trace pages turns;
 * - the run's totals (calls, turns, the turns' tokens and cost, the longest
 *   call) as columns of its Run row, and its calls counted by node run and
 *   tool (RunCallTotal rows), which the runs list and the run page's
 *   overview read.
 * The journal (run-journal-store.ts), the plain sink (run-sink.ts) and a
 * fork's copy (run-fork.ts) all write through here; the migration
 * 20261209000100_trace_aggregates filled the columns of the runs before it.
 */

/** A model-turn step's place and usage, read from the row the engine recorded in its value. */
export interface TurnFacts {
  nodeRunId: string;
  startedAt: Date;
  /** The engine's count of the turn within its node run. */
  sequence: number;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  /** How many of its node run's calls had returned when it started, as the engine counted (the place of a turn with no write order). */
  callsBefore: number;
}

/**
 * The turn a journal step records: null for any other kind, and for a turn
 * recorded before turns were traced (no row), which the trace leaves out.
 *
 * @example
 * turnFactsOf("model-turn", { row: { nodeRunId: "n1", startedAt: "…", sequence: 2, inputTokens: 10 } }) // { nodeRunId: "n1", sequence: 2, … }
 */
export function turnFactsOf(kind: string, value: unknown): TurnFacts | null {
  if (kind !== "model-turn") return null;
  const row = (value as { row?: Record<string, unknown> } | null)?.row;
  if (!row || typeof row !== "object" || typeof row.nodeRunId !== "string" || typeof row.startedAt !== "string") return null;
  const count = (field: unknown) => (typeof field === "number" && Number.isFinite(field) ? field : null);
  return {
    nodeRunId: row.nodeRunId,
    startedAt: new Date(row.startedAt),
    sequence: count(row.sequence) ?? 0,
    inputTokens: count(row.inputTokens),
    outputTokens: count(row.outputTokens),
    costUsd: count(row.costUsd),
    callsBefore: count(row.callsBefore) ?? 0,
  };
}

/** What a write adds to its run's totals. */
export interface TotalsDelta {
  calls: number;
  /** The longest of the calls added, in whole milliseconds as their rows keep it. */
  longestCallMs?: number;
  turns: number;
  /** null: none of the added turns reported any. */
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number;
  turnsWithoutCost: number;
}

export function emptyDelta(): TotalsDelta {
  return { calls: 0, turns: 0, inputTokens: null, outputTokens: null, costUsd: 0, turnsWithoutCost: 0 };
}

/** Counts one more turn into the delta. */
export function addTurn(delta: TotalsDelta, turn: TurnFacts): void {
  delta.turns += 1;
  if (turn.inputTokens !== null) delta.inputTokens = (delta.inputTokens ?? 0) + turn.inputTokens;
  if (turn.outputTokens !== null) delta.outputTokens = (delta.outputTokens ?? 0) + turn.outputTokens;
  if (turn.costUsd === null) delta.turnsWithoutCost += 1;
  else delta.costUsd += turn.costUsd;
}

/**
 * The update that adds the delta to the run's totals; null when it adds
 * nothing. Tokens stay null until a turn reports some, as runTotals counts.
 */
export function totalsUpdate(runId: string, delta: TotalsDelta): SqlStatement | null {
  const sets: string[] = [];
  const params: unknown[] = [];
  const add = (column: string, value: number) => {
    sets.push(`"${column}" = "${column}" + ?`);
    params.push(value);
  };
  if (delta.calls > 0) add("callCount", delta.calls);
  if (delta.longestCallMs !== undefined && delta.longestCallMs > 0) {
    sets.push(`"longestCallMs" = CASE WHEN "longestCallMs" < ? THEN ? ELSE "longestCallMs" END`);
    params.push(delta.longestCallMs, delta.longestCallMs);
  }
  if (delta.turns > 0) {
    add("turnCount", delta.turns);
    add("turnCostUsd", delta.costUsd);
    add("turnsWithoutCost", delta.turnsWithoutCost);
  }
  for (const [column, value] of [["turnInputTokens", delta.inputTokens], ["turnOutputTokens", delta.outputTokens]] as const) {
    if (value === null) continue;
    sets.push(`"${column}" = COALESCE("${column}", 0) + ?`);
    params.push(value);
  }
  if (sets.length === 0) return null;
  return [`UPDATE "Run" SET ${sets.join(", ")} WHERE "id" = ?`, [...params, runId]];
}

/** What a call row adds to its run's counts. */
export interface CallFacts {
  nodeRunId: string | null;
  tool: string;
  isError: boolean;
  tainted: boolean;
  durationMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
}

/** A call's duration as its row keeps it. */
export function storedDuration(durationMs: number): number {
  return Math.max(0, Math.round(durationMs));
}

/** One RunCallTotal row's counts. */
export interface CallCounts {
  runId: string;
  /** "" for calls with no node run. */
  nodeRunId: string;
  tool: string;
  calls: number;
  errors: number;
  tainted: number;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
}

/** Calls added up by node run and tool (one RunCallTotal row each). */
export function countCalls(runId: string, calls: readonly CallFacts[]): CallCounts[] {
  const counts = new Map<string, CallCounts>();
  for (const call of calls) {
    const nodeRunId = call.nodeRunId ?? "";
    const key = `${nodeRunId}\u0000${call.tool}`;
    let row = counts.get(key);
    if (!row) counts.set(key, (row = { runId, nodeRunId, tool: call.tool, calls: 0, errors: 0, tainted: 0, durationMs: 0, inputTokens: 0, outputTokens: 0 }));
    row.calls += 1;
    row.errors += call.isError ? 1 : 0;
    row.tainted += call.tainted ? 1 : 0;
    row.durationMs += storedDuration(call.durationMs);
    row.inputTokens += call.inputTokens ?? 0;
    row.outputTokens += call.outputTokens ?? 0;
  }
  return [...counts.values()];
}

const countColumns = ["calls", "errors", "tainted", "durationMs", "inputTokens", "outputTokens"] as const;

/**
 * The statements that add calls to the run's RunCallTotal rows (an upsert
 * per node run and tool), and them and the turns' delta to its Run row's
 * totals (one update).
 */
export function totalStatements(runId: string, calls: readonly CallFacts[], turns: TotalsDelta = emptyDelta()): SqlStatement[] {
  const statements: SqlStatement[] = countCalls(runId, calls).map((row) => [
    `INSERT INTO "RunCallTotal" ("runId", "nodeRunId", "tool", ${countColumns.map((column) => `"${column}"`).join(", ")}) VALUES (?, ?, ?, ${countColumns.map(() => "?").join(", ")})
     ON CONFLICT ("runId", "nodeRunId", "tool") DO UPDATE SET ${countColumns.map((column) => `"${column}" = "RunCallTotal"."${column}" + excluded."${column}"`).join(", ")}`,
    [row.runId, row.nodeRunId, row.tool, ...countColumns.map((column) => row[column])],
  ]);
  const totals = totalsUpdate(runId, { ...turns, calls: turns.calls + calls.length, longestCallMs: calls.reduce((longest, call) => Math.max(longest, storedDuration(call.durationMs)), 0) });
  return totals ? [...statements, totals] : statements;
}

/**
 * How many of each node run's calls a run has written, to place each turn
 * among them by write order (a call a resumed run made after the turn that
 * asked for it comes after that turn), as the turn is written.
 */
export class CallsWritten {
  private readonly counts = new Map<string, number>();

  constructor(initial: Iterable<readonly [string, number]> = []) {
    for (const [nodeRunId, count] of initial) this.counts.set(nodeRunId, count);
  }

  add(nodeRunId: string | null): void {
    if (nodeRunId !== null) this.counts.set(nodeRunId, (this.counts.get(nodeRunId) ?? 0) + 1);
  }

  of(nodeRunId: string): number {
    return this.counts.get(nodeRunId) ?? 0;
  }
}

/** The columns of a model-turn RunStep row beyond the journal's, in the order of `turnStepColumns`; nulls for any other step. */
export function turnStepValues(turn: TurnFacts | null, callsBefore: number): unknown[] {
  return turn ? [turn.nodeRunId, turn.startedAt, callsBefore, turn.sequence] : [null, null, null, null];
}

export const turnStepColumns = ["turnNodeRunId", "turnStartedAt", "turnCallsBefore", "turnSequence"] as const;

/**
 * The turn columns of a RunStep row as Prisma data, for a script or a test
 * that writes journal rows itself (a turn recorded with no write order:
 * placed as its row counted).
 */
export function turnStepData(kind: string, value: unknown): { turnNodeRunId?: string; turnStartedAt?: Date; turnCallsBefore?: number; turnSequence?: number } {
  const turn = turnFactsOf(kind, value);
  return turn ? { turnNodeRunId: turn.nodeRunId, turnStartedAt: turn.startedAt, turnCallsBefore: turn.callsBefore, turnSequence: turn.sequence } : {};
}

/**
 * The totals of rows a script wrote itself (a bench's or a test's seed), as
 * the writers would have kept them: the Run row's totals and its
 * RunCallTotal rows, from the calls and the model-turn values it wrote.
 */
export async function writeSeededTotals(db: PrismaClient, runId: string, calls: readonly CallFacts[], turnValues: readonly unknown[]): Promise<void> {
  const turns = emptyDelta();
  for (const value of turnValues) {
    const turn = turnFactsOf("model-turn", value);
    if (turn) addTurn(turns, turn);
  }
  await db.runCallTotal.createMany({ data: countCalls(runId, calls) });
  await db.run.update({
    where: { id: runId },
    data: {
      callCount: calls.length,
      longestCallMs: calls.reduce((longest, call) => Math.max(longest, storedDuration(call.durationMs)), 0),
      turnCount: turns.turns,
      turnInputTokens: turns.inputTokens,
      turnOutputTokens: turns.outputTokens,
      turnCostUsd: turns.costUsd,
      turnsWithoutCost: turns.turnsWithoutCost,
    },
  });
}
