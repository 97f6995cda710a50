import type { PrismaClient } from "./create-client";
import { fromJsonText } from "./json-text";
import { toDatabaseError } from "./database-error";
import { toNodeRunRecord, toRunRecord, toTaintRecordEntry, toToolCallRecord } from "./run-rows";
import { type ModelTurnRow, modelTurnsFromJournal, type RunTrace, type TaintRecordEntry, placeNodeRun, placeStep } from "../trace";
import { originCallIdOf, readRunTimeline } from "./run-timeline-read";

/**
 * A run's whole trace, every row of it, for the tools that need all of it
 * at once (a run diff, an OpenTelemetry export); null when no run has that
 * id. The trace page reads through getRunTrace, which may page; this never
 * does. Not server-only: `npm run workflow` uses it with its own client.
 */
export async function readWholeRunTrace(db: PrismaClient, runId: string): Promise<RunTrace | null> {
  try {
    const readAt = new Date();
    const run = await db.run.findUnique({ where: { id: runId } });
    if (!run) return null;
    const [nodeRuns, toolCalls, taintRows, turnSteps] = await Promise.all([
      db.nodeRun.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] }),
      db.toolCall.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }, { sequence: "asc" }] }),
      db.taintRecord.findMany({ where: { runId }, orderBy: [{ sequence: "asc" }, { id: "asc" }] }),
      db.runStep.findMany({ where: { runId, kind: "model-turn" }, select: { key: true, value: true, sequence: true } }),
    ]);
    const runRecord = toRunRecord(run);
    const recorded = nodeRuns.map(toNodeRunRecord);
    // Every row is placed by the run's timeline: a fork's replayed steps where it replayed them, waits as their own spans.
    const timeline = await readRunTimeline(db, runRecord, recorded, readAt.toISOString());
    const origin = originCallIdOf(timeline);
    const byStart = <T extends { startedAt: string }>(a: T, b: T) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0);
    return {
      run: runRecord,
      nodeRuns: recorded.map((nodeRun) => placeNodeRun(timeline, nodeRun)).sort(byStart),
      toolCalls: toolCalls.map((row) => placeStep(timeline, toToolCallRecord(row), origin)).sort((a, b) => byStart(a, b) || a.sequence - b.sequence),
      taintRecords: taintRows.map(toTaintRecordEntry).filter((entry): entry is TaintRecordEntry => entry !== null),
      modelTurns: inWriteOrder(
        modelTurnsFromJournal(runId, turnSteps.map((step) => ({ key: step.key, value: fromJsonText(step.value) }))),
        new Map(turnSteps.map((step) => [step.key, step.sequence])),
        toolCalls,
      ).map((turn) => placeStep(timeline, turn)),
      readAt: readAt.toISOString(),
      timeline,
    };
  } catch (error) {
    throw toDatabaseError(error, `read run "${runId}"`);
  }
}

/**
 * Each turn's place among its node run's calls by the run's write order: a
 * call a resumed run made after the turn that asked for it (an approval's
 * row, then the call) is placed after that turn, whatever the engine
 * counted when the turn started.
 */
function inWriteOrder(turns: ModelTurnRow[], sequenceOf: ReadonlyMap<string, number>, calls: ReadonlyArray<{ nodeRunId: string | null; sequence: number }>): ModelTurnRow[] {
  const written = new Map<string, number[]>();
  for (const call of calls) {
    if (!call.nodeRunId) continue;
    const list = written.get(call.nodeRunId);
    if (list) list.push(call.sequence);
    else written.set(call.nodeRunId, [call.sequence]);
  }
  for (const list of written.values()) list.sort((a, b) => a - b);
  return turns.map((turn) => {
    const at = sequenceOf.get(turn.stepKey) ?? 0;
    if (at === 0) return turn;
    const own = written.get(turn.nodeRunId) ?? [];
    let before = 0;
    while (before < own.length && own[before] < at) before++;
    return { ...turn, callsBefore: before };
  });
}
