import "server-only";
import { prisma } from "./client";
import { toDatabaseError } from "./database-error";
import { toNodeRunRecord, toRunRecord } from "./run-rows";
import { callWhere, summaryColumns, toCallSummary } from "./trace-queries";
import { countCallsByGroup, readAggregates, readTraceCursor } from "./trace-aggregates";
import { readTaintOverview } from "./taint-reads";
import { totalsOfRun } from "./run-totals";
import { countTurnsUpTo, readTurnPlaces } from "./turn-reads";
import { originCallIdOf, readRunTimeline } from "./run-timeline-read";
import { placeNodeRun, placeStep, type AnchoredCall, type CallPage, type CallSummary, type TraceChanges, type TraceCursor, type TraceFilters, cursorText, filtersActive, noFilters, outsideGroup } from "../trace";
import { nodeRunOfStepResult, stableId } from "../run-model";
import type { Prisma } from "../generated/prisma/client";
import { callMatches, firstAnswerCalls, placedWaits } from "./trace-reads";

/**
 * What changed in a run's trace after a poll's cursor (the write count an
 * overview or the poll before answered with), for the run page's live
 * poll: the run row; the node runs that started or ended; the counts and
 * totals (read from the Run row's totals and grouped counts, no row
 * parsed); the calls written since, at their positions (at most
 * `firstAnswerCalls`; the rest show as rows still to load); the new
 * turns' places; the calls that started sub-flows; the taint summary when
 * it changed; the waits. Everything is bounded by the cursor read after
 * the run row (readTraceCursor), which is the next one: no row is sent
 * twice and none is skipped, as long as a run's rows commit in the order
 * they are numbered (one writer per run, each write awaited). Null when no
 * run has that id.
 */
export async function getTraceChanges(runId: string, after: TraceCursor, filters: TraceFilters = noFilters): Promise<TraceChanges | null> {
  try {
    const readAt = new Date();
    const db = prisma();
    const run = await db.run.findUnique({ where: { id: runId } });
    if (!run) return null;
    const now = await readTraceCursor(runId);
    const since = after.rows;
    const upTo = Math.max(since, now.rows);
    const range = { gt: since, lte: upTo };
    const nodeRunRange = { gt: after.nodeRuns, lte: Math.max(after.nodeRuns, now.nodeRuns) };
    const runRecord = toRunRecord(run);
    // Every node run's span places the run's waits and a fork's replay; only the changed ones are sent.
    const [spans, changedRows] = await Promise.all([
      db.nodeRun.findMany({ where: { runId }, select: { id: true, startedAt: true, endedAt: true, parentToolCallId: true } }),
      db.nodeRun.findMany({ where: { runId, changeSequence: nodeRunRange }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] }),
    ]);
    const timeline = await readRunTimeline(db, runRecord, spans.map((span) => ({ id: span.id, startedAt: span.startedAt.toISOString(), endedAt: span.endedAt?.toISOString() ?? null })), readAt.toISOString());
    const nodeRuns = changedRows.map((row) => placeNodeRun(timeline, toNodeRunRecord(row)));
    const [aggregates, groups, totals, taintChanged, turnPlaces, results, waits, newCalls, anchored] = await Promise.all([
      readAggregates(runId, run.longestCallMs),
      filtersActive(filters) ? countCallsByGroup(runId, filters) : null,
      totalsOfRun(db, run),
      db.taintRecord.count({ where: { runId, sequence: range } }),
      readTurnPlaces(db, runId, { after: since, upTo }),
      db.runStep.findMany({ where: { runId, kind: "node-result", sequence: range }, select: { key: true } }),
      placedWaits(runId, timeline),
      db.toolCall.findMany({ where: { ...callWhere(runId, filters), sequence: range }, orderBy: { sequence: "asc" }, take: firstAnswerCalls + 1, select: summaryColumns }),
      readNewAnchors(runId, spans, filters, range),
    ]);
    const origin = originCallIdOf(timeline);
    const pages = await newCallPages(runId, filters, since, newCalls.slice(0, firstAnswerCalls).map((row) => placeStep(timeline, toCallSummary(row), origin)), newCalls.length > firstAnswerCalls);
    const stepKeys: Record<string, string> = {};
    for (const step of results) {
      const nodeRun = nodeRunOfStepResult(step.key);
      if (nodeRun !== null) stepKeys[stableId(runId, nodeRun)] = step.key;
    }
    const changedSpans = Object.fromEntries(nodeRuns.map((nodeRun) => [nodeRun.id, timeline.nodeRuns[nodeRun.id]]).filter(([, span]) => span !== undefined));
    return {
      run: runRecord,
      readAt: readAt.toISOString(),
      since: cursorText(after),
      cursor: cursorText({ rows: upTo, nodeRuns: nodeRunRange.lte }),
      filters,
      nodeRuns,
      aggregates,
      totals,
      groups: groups ?? aggregates.callsByGroup,
      matchingCalls: Object.values(groups ?? aggregates.callsByGroup).reduce((sum, count) => sum + count, 0),
      pages,
      anchored: anchored.map((anchor) => ({ ...anchor, call: placeStep(timeline, anchor.call, origin) })),
      turnPlaces: Object.fromEntries(await Promise.all(Object.entries(turnPlaces).map(async ([group, places]) => [group, { from: await countTurnsUpTo(db, runId, group, since), places }] as const))),
      stepKeys,
      taint: taintChanged > 0 ? await readTaintOverview(runId) : null,
      timeline: { ...timeline, nodeRuns: changedSpans, waits },
    };
  } catch (error) {
    throw toDatabaseError(error, `read what changed in the trace of run "${runId}"`);
  }
}

/** The calls written since the cursor as pages of their groups, each at its position under the filters; a group cut at the limit says where to go on. */
async function newCallPages(runId: string, filters: TraceFilters, since: number, calls: readonly CallSummary[], cut: boolean): Promise<CallPage[]> {
  const byGroup = new Map<string, CallSummary[]>();
  for (const call of calls) {
    const group = call.nodeRunId ?? outsideGroup;
    byGroup.set(group, [...(byGroup.get(group) ?? []), call]);
  }
  return Promise.all(
    [...byGroup].map(async ([group, groupCalls]) => ({
      group,
      offset: await prisma().toolCall.count({ where: { ...callsBefore(runId, filters, group), sequence: { lte: since } } }),
      calls: groupCalls,
      next: cut ? String(groupCalls[groupCalls.length - 1].sequence) : null,
    })),
  );
}

/** A group's calls under the filters; a node run's with no filter by its id alone, so the (nodeRunId, sequence) index counts them. */
function callsBefore(runId: string, filters: TraceFilters, group: string): Prisma.ToolCallWhereInput {
  return group !== outsideGroup && !filtersActive(filters) ? { nodeRunId: group } : callWhere(runId, filters, group);
}

/** The calls that started a sub-flow written in the range (an anchor's place never moves, so each is sent once). */
async function readNewAnchors(runId: string, spans: ReadonlyArray<{ id: string; parentToolCallId: string | null }>, filters: TraceFilters, range: { gt: number; lte: number }): Promise<AnchoredCall[]> {
  const parents = [...new Set(spans.map((span) => span.parentToolCallId).filter((id): id is string => id !== null))];
  if (parents.length === 0) return [];
  const db = prisma();
  const rows = await db.toolCall.findMany({ where: { runId, id: { in: parents }, sequence: range }, select: summaryColumns, orderBy: { sequence: "asc" } });
  if (rows.length === 0) return [];
  const nodeIds = new Map((await db.nodeRun.findMany({ where: { runId }, select: { id: true, nodeId: true } })).map((row) => [row.id, row.nodeId]));
  return Promise.all(
    rows.map(async (row) => {
      const call = toCallSummary(row);
      const group = call.nodeRunId ?? outsideGroup;
      const before = await db.toolCall.count({ where: { ...callWhere(runId, filters, group), sequence: { lt: call.sequence } } });
      return { call, group, before, matches: callMatches(call, filters, nodeIds) };
    }),
  );
}
