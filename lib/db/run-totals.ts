import type { PrismaClient } from "./create-client";
import { toDatabaseError } from "./database-error";
import type { RunTotals } from "../trace";
import type { Run } from "../generated/prisma/client";

/** The totals the runs list shows, without the steps: no time (the list has it). */
export type ListedRunTotals = Pick<RunTotals, "turns" | "toolCalls" | "inputTokens" | "outputTokens" | "costUsd">;

/**
 * Turns, tool calls, tokens and cost of many runs, as lib/trace/run-totals.ts
 * counts them from the whole trace, read from the totals the writers keep on
 * each Run row (lib/db/run-aggregates.ts): no turn is read. A run with no
 * turn rows counts its node runs' turns, and its tokens from its calls: a
 * tool-call row carries its turn's usage, so equal figures within a node run
 * are one turn (two grouped queries, for those runs only).
 */
/** The Run row's totals columns. */
export type RunTotalsColumns = Pick<Run, "id" | "callCount" | "turnCount" | "turnInputTokens" | "turnOutputTokens" | "turnCostUsd" | "turnsWithoutCost">;

/** One run's totals from its row already read: no query unless the run has no turn rows. */
export async function totalsOfRun(db: PrismaClient, run: RunTotalsColumns): Promise<ListedRunTotals> {
  return run.turnCount > 0 ? fromColumns(run) : (await readRunTotals(db, [run.id])).get(run.id)!;
}

function fromColumns(run: RunTotalsColumns): ListedRunTotals {
  return { turns: run.turnCount, toolCalls: run.callCount, inputTokens: run.turnInputTokens, outputTokens: run.turnOutputTokens, costUsd: run.turnCount > 0 && run.turnsWithoutCost === 0 ? run.turnCostUsd : null };
}

export async function readRunTotals(db: PrismaClient, runIds: readonly string[]): Promise<Map<string, ListedRunTotals>> {
  const totals = new Map<string, ListedRunTotals>(runIds.map((id) => [id, { turns: 0, toolCalls: 0, inputTokens: null, outputTokens: null, costUsd: null }]));
  if (runIds.length === 0) return totals;
  try {
    const runs = await db.run.findMany({
      where: { id: { in: [...runIds] } },
      select: { id: true, callCount: true, turnCount: true, turnInputTokens: true, turnOutputTokens: true, turnCostUsd: true, turnsWithoutCost: true },
    });
    const withoutTurns: string[] = [];
    for (const run of runs) {
      totals.set(run.id, fromColumns(run));
      if (run.turnCount === 0) withoutTurns.push(run.id);
    }
    if (withoutTurns.length === 0) return totals;
    const where = { runId: { in: withoutTurns } };
    const [turns, calls] = await Promise.all([
      db.nodeRun.groupBy({ by: ["runId"], where, _sum: { turns: true } }),
      db.toolCall.groupBy({ by: ["runId", "nodeRunId", "inputTokens", "outputTokens"], where: { ...where, OR: [{ inputTokens: { not: null } }, { outputTokens: { not: null } }] } }),
    ]);
    for (const row of turns) totals.get(row.runId)!.turns = row._sum.turns ?? 0;
    for (const row of calls) {
      const run = totals.get(row.runId)!;
      if (row.inputTokens !== null) run.inputTokens = (run.inputTokens ?? 0) + row.inputTokens;
      if (row.outputTokens !== null) run.outputTokens = (run.outputTokens ?? 0) + row.outputTokens;
    }
    return totals;
  } catch (error) {
    throw toDatabaseError(error, "read the totals of the runs");
  }
}
