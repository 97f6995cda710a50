import "server-only";
import type { Prisma } from "../generated/prisma/client";
import { prisma } from "./client";
import { toDatabaseError } from "./database-error";
import { toNodeRunRecord, toRunRecord, toToolCallRecord } from "./run-rows";
import { callWhere, summaryColumns, toCallSummary } from "./trace-queries";
import { countCallsByGroup, readAggregates, readTraceCursor } from "./trace-aggregates";
import { readTaintOrigins, readTaintOverview } from "./taint-reads";
import { totalsOfRun } from "./run-totals";
import { type AnchoredCall, type CallDetail, type CallPage, type CallSummary, type TaintOriginPage, type TraceFilters, type TraceOverview, type TurnPage, cursorText, noFilters, outsideGroup, type NodeRunRecord, placeNodeRun, placeStep, type RunTimeline } from "../trace";
import { nodeRunOfStepResult, stableId } from "../run-model";
import { readTurnPage, readTurnPlaces } from "./turn-reads";
import { originCallIdOf, readRunTimeline } from "./run-timeline-read";

/** The first page of each group holds at most this many calls, and the first answer at most `firstAnswerCalls`. */
export const firstPageCalls = 50;
export const firstAnswerCalls = 150;
/** The most calls one page may ask for. */
export const maxPageCalls = 500;
/** Model turns: the first page of each node run's, at most `firstAnswerTurns` in the first answer, and the most one page may ask for. */
export const firstPageTurns = 50;
export const firstAnswerTurns = 150;
export const maxPageTurns = 500;

/**
 * The trace page's first answer (and each live poll): the run, its node
 * runs, the totals the database counts, the calls that started sub-flows,
 * the first calls of each group and the taint summary. Its size does not
 * grow with the number of calls. Null when no run has that id.
 *
 * The run row is read first: when it says the run ended, every row it
 * wrote is already in the database and so counted here. Then the run's
 * write count, the answer's `cursor`: a live poll asks for what changed
 * after it (getTraceChanges).
 */
export async function getTraceOverview(runId: string, filters: TraceFilters = noFilters): Promise<TraceOverview | null> {
  try {
    const readAt = new Date();
    const db = prisma();
    const run = await db.run.findUnique({ where: { id: runId } });
    if (!run) return null;
    const cursor = await readTraceCursor(runId);
    const recorded = (await db.nodeRun.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] })).map(toNodeRunRecord);
    const runRecord = toRunRecord(run);
    const timeline = await readRunTimeline(db, runRecord, recorded, readAt.toISOString());
    const nodeRuns = recorded.map((nodeRun) => placeNodeRun(timeline, nodeRun));
    const [aggregates, taint, totals] = await Promise.all([readAggregates(runId, run.longestCallMs), readTaintOverview(runId), totalsOfRun(db, run)]);
    const groups = await countCallsByGroup(runId, filters, aggregates);
    const origin = originCallIdOf(timeline);
    const anchored = (await readAnchoredCalls(runId, nodeRuns, filters)).map((anchor) => ({ ...anchor, call: placeStep(timeline, anchor.call, origin) }));
    const journalled = await readJournalledSteps(runId, nodeRuns, timeline);
    const pages: CallPage[] = [];
    let budget = firstAnswerCalls;
    for (const group of groupOrder(nodeRuns, groups)) {
      if (budget <= 0) break;
      const page = await readPage(runId, { group, filters, offset: 0, limit: Math.min(firstPageCalls, budget) }, timeline);
      budget -= page.calls.length;
      pages.push(page);
    }
    const matchingCalls = Object.values(groups).reduce((sum, count) => sum + count, 0);
    return { run: runRecord, nodeRuns, readAt: readAt.toISOString(), cursor: cursorText(cursor), aggregates, filters, matchingCalls, groups, anchored, pages, taint, totals, timeline, ...journalled };
  } catch (error) {
    throw toDatabaseError(error, `read the trace of run "${runId}"`);
  }
}

/**
 * The tree's model turns: every turn's place among its node run's calls,
 * and the first turns of the node runs shown first (the rest come in pages,
 * getTurnPage); and the step nodes' journal keys by node run (what "Fork
 * from here" names). A turn's and a wait's place is by the run's write
 * order, so a call a resumed run made after the turn that asked for it is
 * listed after that turn. Read from the turns' columns: only the turns of
 * the first pages are parsed.
 */
async function readJournalledSteps(runId: string, nodeRuns: readonly NodeRunRecord[], timeline: RunTimeline): Promise<Pick<TraceOverview, "turnPlaces" | "turnPages" | "stepKeys" | "timeline">> {
  const db = prisma();
  const [turnPlaces, results, waits] = await Promise.all([
    readTurnPlaces(db, runId),
    db.runStep.findMany({ where: { runId, kind: "node-result" }, select: { key: true } }),
    placedWaits(runId, timeline),
  ]);
  const stepKeys: Record<string, string> = {};
  for (const step of results) {
    const nodeRun = nodeRunOfStepResult(step.key);
    if (nodeRun !== null) stepKeys[stableId(runId, nodeRun)] = step.key;
  }
  const turnPages: TurnPage[] = [];
  let budget = firstAnswerTurns;
  for (const nodeRun of nodeRuns) {
    if (!turnPlaces[nodeRun.id] || budget <= 0) continue;
    const turns = await readTurnPage(db, runId, timeline, { group: nodeRun.id, offset: 0, limit: Math.min(firstPageTurns, budget) });
    budget -= turns.length;
    turnPages.push({ group: nodeRun.id, offset: 0, turns });
  }
  return { turnPlaces, turnPages, stepKeys, timeline: { ...timeline, waits } };
}

/** The timeline's waits, each wait of a node run placed among its calls: how many were written before it. */
export async function placedWaits(runId: string, timeline: RunTimeline): Promise<RunTimeline["waits"]> {
  return Promise.all(
    timeline.waits.map(async (wait) =>
      wait.nodeRunId && wait.sequence > 0 ? { ...wait, callsBefore: await prisma().toolCall.count({ where: { runId, nodeRunId: wait.nodeRunId, sequence: { lt: wait.sequence } } }) } : wait,
    ),
  );
}

/** A page of one node run's model turns, numbered as in the first answer's `turnPlaces`. */
export async function getTurnPage(runId: string, request: { group: string; offset: number; limit: number }): Promise<TurnPage> {
  try {
    const { timeline } = await readTimelineOf(runId);
    const limit = Math.max(1, Math.min(maxPageTurns, request.limit));
    return { group: request.group, offset: request.offset, turns: await readTurnPage(prisma(), runId, timeline, { group: request.group, offset: request.offset, limit }) };
  } catch (error) {
    throw toDatabaseError(error, `read the model turns of run "${runId}"`);
  }
}

/** The run's timeline, for a page of rows to be placed by (an empty one when the run is gone). */
async function readTimelineOf(runId: string): Promise<{ timeline: RunTimeline; nodeRuns: NodeRunRecord[] }> {
  const db = prisma();
  const run = await db.run.findUnique({ where: { id: runId } });
  const nodeRuns = (await db.nodeRun.findMany({ where: { runId } })).map(toNodeRunRecord);
  if (!run) return { timeline: { startedAt: "", endedAt: null, replay: null, nodeRuns: {}, waits: [] }, nodeRuns };
  return { timeline: await readRunTimeline(db, toRunRecord(run), nodeRuns, new Date().toISOString()), nodeRuns };
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
    return await readPage(runId, { ...request, filters: request.filters ?? noFilters }, (await readTimelineOf(runId)).timeline);
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
    const { timeline } = await readTimelineOf(runId);
    return { call: placeStep(timeline, toToolCallRecord(row), originCallIdOf(timeline)), group, position };
  } catch (error) {
    throw toDatabaseError(error, `read call "${callId}" of run "${runId}"`);
  }
}

async function readPage(runId: string, request: Required<Pick<CallPageRequest, "group" | "filters" | "limit">> & Pick<CallPageRequest, "after" | "offset">, timeline: RunTimeline): Promise<CallPage> {
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
  const origin = originCallIdOf(timeline);
  const calls = rows.slice(0, limit).map((row) => placeStep(timeline, toCallSummary(row), origin));
  const next = rows.length > limit ? String(calls[calls.length - 1].sequence) : null;
  return { group: request.group, offset, calls, next };
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

export function callMatches(call: CallSummary, filters: TraceFilters, nodeIdOf: ReadonlyMap<string, string>): boolean {
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
