import { prisma } from "./client";
import { outsideGroup, type TraceAggregates, type TraceCursor } from "../trace/trace-page";

/**
 * What the trace page counts over every call of a run, counted by the
 * database (group-by and aggregate queries that SQLite and Postgres both
 * run): totals, per tool, per group, and the waterfall's extent (the first
 * start; the end of the call that started last, or of a longer one before it).
 */
export async function readAggregates(runId: string): Promise<TraceAggregates> {
  const db = prisma();
  const where = { runId };
  const [byTool, errorsByTool, byGroup, tainted, extent] = await Promise.all([
    db.toolCall.groupBy({ by: ["tool"], where, _count: { _all: true }, _sum: { durationMs: true, inputTokens: true, outputTokens: true }, orderBy: { tool: "asc" } }),
    db.toolCall.groupBy({ by: ["tool"], where: { ...where, isError: true }, _count: { _all: true } }),
    db.toolCall.groupBy({ by: ["nodeRunId"], where, _count: { _all: true } }),
    db.toolCall.count({ where: { ...where, tainted: true } }),
    db.toolCall.aggregate({ where, _min: { startedAt: true }, _max: { startedAt: true, durationMs: true } }),
  ]);
  const errors = new Map(errorsByTool.map((row) => [row.tool, row._count._all]));
  const tools = byTool.map((row) => ({
    tool: row.tool,
    calls: row._count._all,
    errors: errors.get(row.tool) ?? 0,
    durationMs: row._sum.durationMs ?? 0,
    inputTokens: row._sum.inputTokens ?? 0,
    outputTokens: row._sum.outputTokens ?? 0,
  }));
  const sum = (key: "calls" | "errors" | "inputTokens" | "outputTokens") => tools.reduce((total, tool) => total + tool[key], 0);
  return {
    calls: sum("calls"),
    errors: sum("errors"),
    tainted,
    inputTokens: sum("inputTokens"),
    outputTokens: sum("outputTokens"),
    tools,
    callsByGroup: Object.fromEntries(byGroup.map((row) => [row.nodeRunId ?? outsideGroup, row._count._all])),
    firstCallAt: extent._min.startedAt?.toISOString() ?? null,
    lastCallEndAt: await lastCallEnd(runId, extent._max.startedAt, extent._max.durationMs ?? 0),
  };
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
  const [calls, steps, taint, nodeRuns] = await Promise.all([
    db.toolCall.aggregate({ where, _max: { sequence: true } }),
    db.runStep.aggregate({ where, _max: { sequence: true } }),
    db.taintRecord.aggregate({ where, _max: { sequence: true } }),
    db.nodeRun.aggregate({ where, _max: { changeSequence: true } }),
  ]);
  return { rows: Math.max(0, calls._max.sequence ?? 0, steps._max.sequence ?? 0, taint._max.sequence ?? 0), nodeRuns: nodeRuns._max.changeSequence ?? 0 };
}
