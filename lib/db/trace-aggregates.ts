import { prisma } from "./client";
import { filtersActive, outsideGroup, type ToolTotal, type TraceAggregates, type TraceCursor, type TraceFilters } from "../trace";
import { callWhere } from "./trace-queries";

/**
 * What the trace page counts over every call of a run: totals, per tool,
 * per group, and the waterfall's extent (the first start; the end of the
 * call that started last, or of a longer one before it). The counts are
 * the run's RunCallTotal rows, kept by the writers with the calls
 * (lib/db/run-aggregates.ts): a few rows however many calls the run made;
 * the extent comes from the calls' (runId, startedAt) index.
 */
export async function readAggregates(runId: string, longestCallMs: number): Promise<TraceAggregates> {
  const db = prisma();
  const [rows, first, last] = await Promise.all([
    db.runCallTotal.findMany({ where: { runId } }),
    db.toolCall.findFirst({ where: { runId }, orderBy: { startedAt: "asc" }, select: { startedAt: true } }),
    db.toolCall.findFirst({ where: { runId }, orderBy: { startedAt: "desc" }, select: { startedAt: true } }),
  ]);
  const byTool = new Map<string, ToolTotal>();
  const callsByGroup: Record<string, number> = {};
  let tainted = 0;
  for (const row of rows) {
    const tool = byTool.get(row.tool) ?? { tool: row.tool, calls: 0, errors: 0, durationMs: 0, inputTokens: 0, outputTokens: 0 };
    byTool.set(row.tool, { tool: row.tool, calls: tool.calls + row.calls, errors: tool.errors + row.errors, durationMs: tool.durationMs + row.durationMs, inputTokens: tool.inputTokens + row.inputTokens, outputTokens: tool.outputTokens + row.outputTokens });
    callsByGroup[row.nodeRunId] = (callsByGroup[row.nodeRunId] ?? 0) + row.calls;
    tainted += row.tainted;
  }
  const tools = [...byTool.values()].sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  const sum = (key: "calls" | "errors" | "inputTokens" | "outputTokens") => tools.reduce((total, tool) => total + tool[key], 0);
  return {
    calls: sum("calls"),
    errors: sum("errors"),
    tainted,
    inputTokens: sum("inputTokens"),
    outputTokens: sum("outputTokens"),
    tools,
    callsByGroup,
    firstCallAt: first?.startedAt.toISOString() ?? null,
    lastCallEndAt: await lastCallEnd(runId, last?.startedAt ?? null, longestCallMs),
  };
}

/**
 * Calls per group that pass the filters, from the RunCallTotal rows when
 * the filters are by tool or errors only; by node, the calls are counted
 * (an outside host's calls are that node's by their caller).
 */
export async function countCallsByGroup(runId: string, filters: TraceFilters, aggregates?: TraceAggregates): Promise<Record<string, number>> {
  if (aggregates && !filtersActive(filters)) return aggregates.callsByGroup;
  if (filters.nodeId) {
    const rows = await prisma().toolCall.groupBy({ by: ["nodeRunId"], where: callWhere(runId, filters), _count: { _all: true } });
    return Object.fromEntries(rows.map((row) => [row.nodeRunId ?? outsideGroup, row._count._all]));
  }
  const rows = await prisma().runCallTotal.findMany({ where: { runId, ...(filters.tool ? { tool: filters.tool } : {}) }, select: { nodeRunId: true, calls: true, errors: true } });
  const groups: Record<string, number> = {};
  for (const row of rows) {
    const count = filters.errorsOnly ? row.errors : row.calls;
    if (count > 0) groups[row.nodeRunId] = (groups[row.nodeRunId] ?? 0) + count;
  }
  return groups;
}

/** The latest end of a call: only calls that started within the longest call's length of the last start can end after it. */
async function lastCallEnd(runId: string, lastStart: Date | null, longest: number): Promise<string | null> {
  if (!lastStart) return null;
  const candidates = await prisma().toolCall.findMany({
    where: { runId, startedAt: { gte: new Date(lastStart.getTime() - longest) } },
    select: { startedAt: true, durationMs: true },
    orderBy: { startedAt: "desc" },
    take: 1000,
  });
  const end = Math.max(...candidates.map((call) => call.startedAt.getTime() + call.durationMs));
  return new Date(end).toISOString();
}

/**
 * Where a run's rows stand now (a live poll's cursor): the highest
 * `sequence` of its calls, journal steps and taint entries (one counter per
 * run, taken as each row is written), and the highest count of its node
 * runs' changes (each start and end takes the next). "Changed after the
 * cursor" is a row whose count is above it.
 */
export async function readTraceCursor(runId: string): Promise<TraceCursor> {
  const db = prisma();
  const where = { runId };
  // Each the last row of a (runId, sequence) index.
  const last = { orderBy: { sequence: "desc" }, select: { sequence: true } } as const;
  const [calls, steps, taint, nodeRuns] = await Promise.all([
    db.toolCall.findFirst({ where, ...last }),
    db.runStep.findFirst({ where, ...last }),
    db.taintRecord.findFirst({ where, ...last }),
    db.nodeRun.aggregate({ where, _max: { changeSequence: true } }),
  ]);
  return { rows: Math.max(0, calls?.sequence ?? 0, steps?.sequence ?? 0, taint?.sequence ?? 0), nodeRuns: nodeRuns._max.changeSequence ?? 0 };
}
