import "server-only";
import type { Prisma } from "../generated/prisma/client";
import { prisma } from "./client";
import { toDatabaseError } from "./database-error";
import { toNodeRunRecord, toRunRecord, toToolCallRecord } from "./run-rows";
import { callWhere, summaryColumns, toCallSummary } from "./trace-queries";
import { readAggregates } from "./trace-aggregates";
import { readTaintOrigins, readTaintOverview } from "./taint-reads";
import { readRunTotals } from "./run-totals";
import { type AnchoredCall, type CallDetail, type CallPage, type CallSummary, type TaintOriginPage, type TraceFilters, type TraceOverview, noFilters, outsideGroup } from "../trace/trace-page";
import type { NodeRunRecord } from "../trace/run-trace";
import { fromJsonText } from "./json-text";
import { modelTurnsFromJournal } from "../trace/model-turns";
import { stableId } from "../engine/journal/step-key";

/** The first page of each group holds at most this many calls, and the first answer at most `firstAnswerCalls`. */
export const firstPageCalls = 50;
export const firstAnswerCalls = 150;
/** The most calls one page may ask for. */
export const maxPageCalls = 500;

/**
 * The trace page's first answer (and each live poll): the run, its node
 * runs, the totals the database counts, the calls that started sub-flows,
 * the first calls of each group and the taint summary. Its size does not
 * grow with the number of calls. Null when no run has that id.
 *
 * The run row is read first: when it says the run ended, every row it
 * wrote is already in the database and so counted here.
 */
export async function getTraceOverview(runId: string, filters: TraceFilters = noFilters): Promise<TraceOverview | null> {
  try {
    const readAt = new Date();
    const db = prisma();
    const run = await db.run.findUnique({ where: { id: runId } });
    if (!run) return null;
    const nodeRuns = (await db.nodeRun.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] })).map(toNodeRunRecord);
    const [aggregates, groups, taint, totals] = await Promise.all([readAggregates(runId), countGroups(runId, filters), readTaintOverview(runId), readRunTotals(db, [runId])]);
    const anchored = await readAnchoredCalls(runId, nodeRuns, filters);
    const journalled = await readJournalledSteps(runId);
    const pages: CallPage[] = [];
    let budget = firstAnswerCalls;
    for (const group of groupOrder(nodeRuns, groups)) {
      if (budget <= 0) break;
      const page = await readPage(runId, { group, filters, offset: 0, limit: Math.min(firstPageCalls, budget) });
      budget -= page.calls.length;
      pages.push(page);
    }
    const matchingCalls = Object.values(groups).reduce((sum, count) => sum + count, 0);
    return { run: toRunRecord(run), nodeRuns, readAt: readAt.toISOString(), aggregates, filters, matchingCalls, groups, anchored, pages, taint, totals: totals.get(runId), ...journalled };
  } catch (error) {
    throw toDatabaseError(error, `read the trace of run "${runId}"`);
  }
}

/** The run's model turns (the tree's turn rows) and its step nodes' journal keys by node run (what "Fork from here" names). */
async function readJournalledSteps(runId: string): Promise<Pick<TraceOverview, "modelTurns" | "stepKeys">> {
  const steps = await prisma().runStep.findMany({ where: { runId, kind: { in: ["model-turn", "node-result"] } }, select: { key: true, kind: true, value: true } });
  const turns = modelTurnsFromJournal(runId, steps.filter((step) => step.kind === "model-turn").map((step) => ({ key: step.key, value: fromJsonText(step.value) })));
  const stepKeys: Record<string, string> = {};
  for (const step of steps) if (step.kind === "node-result" && step.key.endsWith("/step")) stepKeys[stableId(runId, step.key.slice(0, -"/step".length))] = step.key;
  return { modelTurns: turns.map(({ runId: _runId, contextKey: _contextKey, sentResults: _sent, ...turn }) => turn), stepKeys };
}

export interface CallPageRequest {
  group: string;
  filters?: TraceFilters;
  /** A cursor from a page's `next`: the page after it. */
  after?: string;
  /** Or a position: the page starting there (positions are stable, see lib/trace/trace-page.ts). */
  offset?: number;
  limit: number;
}

/** A page of one group's calls, in write order, under the filters. */
export async function getCallPage(runId: string, request: CallPageRequest): Promise<CallPage> {
  try {
    return await readPage(runId, { ...request, filters: request.filters ?? noFilters });
  } catch (error) {
    throw toDatabaseError(error, `read the calls of run "${runId}"`);
  }
}

/** One call in full, and its position in its group (no filter); null when the run has no such call. */
export async function getCallDetail(runId: string, callId: string): Promise<CallDetail | null> {
  try {
    const db = prisma();
    const row = await db.toolCall.findFirst({ where: { id: callId, runId } });
    if (!row) return null;
    const group = row.nodeRunId ?? outsideGroup;
    const position = await db.toolCall.count({ where: { ...callWhere(runId, noFilters, group), sequence: { lt: row.sequence } } });
    return { call: toToolCallRecord(row), group, position };
  } catch (error) {
    throw toDatabaseError(error, `read call "${callId}" of run "${runId}"`);
  }
}

async function readPage(runId: string, request: Required<Pick<CallPageRequest, "group" | "filters" | "limit">> & Pick<CallPageRequest, "after" | "offset">): Promise<CallPage> {
  const db = prisma();
  const where = callWhere(runId, request.filters, request.group);
  const limit = Math.max(1, Math.min(maxPageCalls, request.limit));
  let offset = request.offset ?? 0;
  let pageWhere: Prisma.ToolCallWhereInput = where;
  if (request.after !== undefined) {
    const after = Number(request.after);
    pageWhere = { ...where, sequence: { gt: after } };
    offset = await db.toolCall.count({ where: { ...where, sequence: { lte: after } } });
  }
  const rows = await db.toolCall.findMany({
    where: pageWhere,
    orderBy: { sequence: "asc" },
    ...(request.after === undefined && offset > 0 ? { skip: offset } : {}),
    take: limit + 1,
    select: summaryColumns,
  });
  const calls = rows.slice(0, limit).map(toCallSummary);
  const next = rows.length > limit ? String(calls[calls.length - 1].sequence) : null;
  return { group: request.group, offset, calls, next };
}

async function countGroups(runId: string, filters: TraceFilters): Promise<Record<string, number>> {
  const rows = await prisma().toolCall.groupBy({ by: ["nodeRunId"], where: callWhere(runId, filters), _count: { _all: true } });
  return Object.fromEntries(rows.map((row) => [row.nodeRunId ?? outsideGroup, row._count._all]));
}

/** Groups in the order the tree shows them: node runs by start, then the calls with no node run. */
function groupOrder(nodeRuns: readonly NodeRunRecord[], groups: Record<string, number>): string[] {
  const order = nodeRuns.map((nodeRun) => nodeRun.id).filter((id) => (groups[id] ?? 0) > 0);
  if ((groups[outsideGroup] ?? 0) > 0) order.push(outsideGroup);
  return order;
}

/** The calls that started a sub-flow (a task's), each placed among its group's calls that pass the filters. */
async function readAnchoredCalls(runId: string, nodeRuns: readonly NodeRunRecord[], filters: TraceFilters): Promise<AnchoredCall[]> {
  const parents = [...new Set(nodeRuns.map((nodeRun) => nodeRun.parentToolCallId).filter((id): id is string => id !== null))];
  if (parents.length === 0) return [];
  const db = prisma();
  const rows = await db.toolCall.findMany({ where: { runId, id: { in: parents } }, select: summaryColumns, orderBy: { sequence: "asc" } });
  const nodeIdOf = new Map(nodeRuns.map((nodeRun) => [nodeRun.id, nodeRun.nodeId]));
  return Promise.all(
    rows.map(async (row) => {
      const call = toCallSummary(row);
      const group = call.nodeRunId ?? outsideGroup;
      const before = await db.toolCall.count({ where: { ...callWhere(runId, filters, group), sequence: { lt: call.sequence } } });
      return { call, group, before, matches: callMatches(call, filters, nodeIdOf) };
    }),
  );
}

function callMatches(call: CallSummary, filters: TraceFilters, nodeIdOf: ReadonlyMap<string, string>): boolean {
  const nodeId = (call.nodeRunId ? nodeIdOf.get(call.nodeRunId) : undefined) ?? call.caller;
  return (!filters.tool || call.tool === filters.tool) && (!filters.errorsOnly || call.isError) && (!filters.nodeId || nodeId === filters.nodeId);
}

/** A page of the calls one taint entry came from; null when the run has no such entry. */
export async function getTaintOrigins(runId: string, entryId: string, options: { after?: number; limit: number }): Promise<TaintOriginPage | null> {
  try {
    return await readTaintOrigins(runId, entryId, options);
  } catch (error) {
    throw toDatabaseError(error, `read the taint origins of entry "${entryId}" of run "${runId}"`);
  }
}
