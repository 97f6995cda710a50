import type { PrismaClient } from "./create-client";
import { fromJsonText } from "./json-text";
import { toDatabaseError } from "./database-error";
import { modelTurnsFromJournal } from "../trace/model-turns";
import { type RunTotals, runTotals } from "../trace/run-totals";

/** The totals the runs list shows, without the steps: no time (the list has it). */
export type ListedRunTotals = Pick<RunTotals, "turns" | "toolCalls" | "inputTokens" | "outputTokens" | "costUsd">;

/**
 * Turns, tool calls and tokens of many runs in two grouped queries (never
 * a run's rows): turns from the node runs; tokens with each turn counted
 * once, as lib/trace/run-totals.ts does — a tool-call row carries its
 * turn's usage, so equal figures within a node run are one turn.
 */
export async function readRunTotals(db: PrismaClient, runIds: readonly string[]): Promise<Map<string, ListedRunTotals>> {
  const totals = new Map<string, ListedRunTotals>(runIds.map((id) => [id, { turns: 0, toolCalls: 0, inputTokens: null, outputTokens: null, costUsd: null }]));
  if (runIds.length === 0) return totals;
  try {
    const where = { runId: { in: [...runIds] } };
    const [turns, calls, turnSteps] = await Promise.all([
      db.nodeRun.groupBy({ by: ["runId"], where, _sum: { turns: true } }),
      db.toolCall.groupBy({ by: ["runId", "nodeRunId", "inputTokens", "outputTokens"], where, _count: { _all: true } }),
      db.runStep.findMany({ where: { ...where, kind: "model-turn" }, select: { runId: true, key: true, value: true } }),
    ]);
    for (const row of turns) totals.get(row.runId)!.turns = row._sum.turns ?? 0;
    for (const row of calls) {
      const run = totals.get(row.runId)!;
      run.toolCalls += row._count._all;
      if (row.inputTokens !== null) run.inputTokens = (run.inputTokens ?? 0) + row.inputTokens;
      if (row.outputTokens !== null) run.outputTokens = (run.outputTokens ?? 0) + row.outputTokens;
    }
    // Runs with turn rows: turns, tokens and cost from the rows, as runTotals does for one run.
    const rowsOf = new Map<string, Array<{ key: string; value: unknown }>>();
    for (const step of turnSteps) {
      const steps = rowsOf.get(step.runId) ?? [];
      rowsOf.set(step.runId, steps);
      steps.push({ key: step.key, value: fromJsonText(step.value) });
    }
    for (const [runId, steps] of rowsOf) {
      const rows = modelTurnsFromJournal(runId, steps);
      if (rows.length === 0) continue;
      const run = totals.get(runId)!;
      const from = runTotals({ run: { startedAt: "", endedAt: null }, nodeRuns: [], toolCalls: [], modelTurns: rows });
      Object.assign(run, { turns: from.turns, inputTokens: from.inputTokens, outputTokens: from.outputTokens, costUsd: from.costUsd });
    }
    return totals;
  } catch (error) {
    throw toDatabaseError(error, "read the totals of the runs");
  }
}
