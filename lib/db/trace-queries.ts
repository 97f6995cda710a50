import type { Prisma } from "../generated/prisma/client";
import { type CallSummary, type TraceFilters, outsideGroup } from "../trace";

/** The columns a call's row shows: everything but its arguments and result (the large ones). */
export const summaryColumns = {
  id: true, runId: true, nodeRunId: true, tool: true, server: true, caller: true, error: true, isError: true, tainted: true,
  startedAt: true, durationMs: true, inputTokens: true, outputTokens: true, sequence: true, stepKey: true,
} satisfies Prisma.ToolCallSelect;

type SummaryRow = Prisma.ToolCallGetPayload<{ select: typeof summaryColumns }>;

/** A row's error is cut to this many characters; the opened call shows all of it. */
const errorPreview = 300;

export function toCallSummary(row: SummaryRow): CallSummary {
  return {
    ...row,
    error: row.error && row.error.length > errorPreview ? `${row.error.slice(0, errorPreview)}…` : row.error,
    startedAt: row.startedAt.toISOString(),
  };
}

/**
 * The calls of a run that pass the filters, in one group when given ("" is
 * the calls with no node run). A call's node is its node run's, or its
 * caller's name when it has none (a call from an outside MCP host).
 */
export function callWhere(runId: string, filters: TraceFilters, group?: string): Prisma.ToolCallWhereInput {
  const where: Prisma.ToolCallWhereInput = { runId };
  if (filters.tool) where.tool = filters.tool;
  if (filters.errorsOnly) where.isError = true;
  if (filters.nodeId) where.OR = [{ nodeRun: { is: { nodeId: filters.nodeId } } }, { nodeRunId: null, caller: filters.nodeId }];
  if (group !== undefined) where.nodeRunId = group === outsideGroup ? null : group;
  return where;
}
