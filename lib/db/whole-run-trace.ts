import type { PrismaClient } from "./create-client";
import { fromJsonText } from "./json-text";
import { toDatabaseError } from "./database-error";
import { toNodeRunRecord, toRunRecord, toTaintRecordEntry, toToolCallRecord } from "./run-rows";
import { modelTurnsFromJournal } from "../trace/model-turns";
import type { RunTrace, TaintRecordEntry } from "../trace/run-trace";

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
      db.runStep.findMany({ where: { runId, kind: "model-turn" }, select: { key: true, value: true } }),
    ]);
    return {
      run: toRunRecord(run),
      nodeRuns: nodeRuns.map(toNodeRunRecord),
      toolCalls: toolCalls.map(toToolCallRecord),
      taintRecords: taintRows.map(toTaintRecordEntry).filter((entry): entry is TaintRecordEntry => entry !== null),
      modelTurns: modelTurnsFromJournal(runId, turnSteps.map((step) => ({ key: step.key, value: fromJsonText(step.value) }))),
      readAt: readAt.toISOString(),
    };
  } catch (error) {
    throw toDatabaseError(error, `read run "${runId}"`);
  }
}
