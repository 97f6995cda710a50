import "server-only";
import { prisma } from "./client";
import { toDatabaseError } from "./database-error";
import { documentName, toNodeRunRecord, toRunRecord, toTaintRecordEntry, toToolCallRecord } from "./run-rows";
import type { RunSummary, RunTrace, TaintRecordEntry } from "../trace";
import type { RunOriginKind } from "../run-model";

/**
 * A run with its node runs, tool calls and taint entries, as plain data;
 * null when no run has that id. `afterSequence` keeps only the tool calls
 * and taint entries written after the n-th row (a live page's next poll);
 * node runs always come complete, since they change while they run.
 * `limit` caps the tool calls, taken in write order (the trace page reads
 * pages instead: lib/db/trace-reads.ts).
 *
 * The run row is read first: when it says the run ended, every row it wrote
 * is already in the database and so in this answer.
 */
export async function getRunTrace(runId: string, options: { afterSequence?: number; limit?: number } = {}): Promise<RunTrace | null> {
  try {
    const readAt = new Date();
    const run = await prisma().run.findUnique({ where: { id: runId } });
    if (!run) return null;
    const nodeRuns = await prisma().nodeRun.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] });
    const after = options.afterSequence ? { sequence: { gt: options.afterSequence } } : {};
    const limit = options.limit;
    const toolCalls = await prisma().toolCall.findMany({ where: { runId, ...after }, orderBy: limit ? [{ sequence: "asc" }] : [{ startedAt: "asc" }, { sequence: "asc" }], take: limit });
    // Cut at a limit, the taint entries stop where the calls did, so "after the last row seen" skips nothing.
    const upTo = limit && toolCalls.length === limit ? { sequence: { gt: options.afterSequence ?? 0, lte: toolCalls[limit - 1].sequence } } : after;
    const taintRows = await prisma().taintRecord.findMany({ where: { runId, ...upTo }, orderBy: [{ sequence: "asc" }, { id: "asc" }] });
    return {
      run: toRunRecord(run),
      nodeRuns: nodeRuns.map(toNodeRunRecord),
      // A row written before the run's latest resume was replayed from the journal by that resume, not run again.
      toolCalls: toolCalls.map((row) => ({ ...toToolCallRecord(row), ...(row.attempt < run.resumeCount ? { replayed: true } : {}) })),
      taintRecords: taintRows.map(toTaintRecordEntry).filter((entry): entry is TaintRecordEntry => entry !== null),
      readAt: readAt.toISOString(),
    };
  } catch (error) {
    throw toDatabaseError(error, `read run "${runId}"`);
  }
}

/** The runs of one workflow, the newest first. */
export async function listRuns(workflowId: string, options: { limit?: number; originKind?: RunOriginKind } = {}): Promise<RunSummary[]> {
  return readSummaries({ workflowId, ...(options.originKind ? { originKind: options.originKind } : {}) }, options.limit ?? 100, `list the runs of workflow "${workflowId}"`);
}

/** The newest runs of every workflow. */
export async function listRecentRuns(options: { limit?: number; originKind?: RunOriginKind } = {}): Promise<RunSummary[]> {
  return readSummaries(options.originKind ? { originKind: options.originKind } : {}, options.limit ?? 20, "list the recent runs");
}

async function readSummaries(where: { workflowId?: string; originKind?: string }, limit: number, action: string): Promise<RunSummary[]> {
  try {
    const rows = await prisma().run.findMany({
      where,
      orderBy: [{ startedAt: "desc" }, { id: "asc" }],
      take: limit,
      select: { id: true, workflowId: true, document: true, status: true, error: true, startedAt: true, endedAt: true, attention: true, forkedFromRunId: true, forkedAtStep: true, forkChange: true, origin: true, originKind: true, callCount: true },
    });
    return rows.map((row) => {
      const record = toRunRecord({ ...row, input: "{}", outputs: "{}", workerId: null, leaseExpiresAt: null, resumeCount: 0, cancelRequestedAt: null, turnCount: 0, turnInputTokens: null, turnOutputTokens: null, turnCostUsd: 0, turnsWithoutCost: 0, longestCallMs: 0, threadId: null, threadTurn: null });
      return {
        id: record.id,
        workflowId: record.workflowId,
        workflowName: documentName(row.document),
        status: record.status,
        error: record.error,
        startedAt: record.startedAt,
        endedAt: record.endedAt,
        // Kept on the Run row by the writers (lib/db/run-aggregates.ts): no count of the calls.
        toolCallCount: row.callCount,
        ...(record.attention?.approval ? { waitingForApproval: true } : {}),
        ...(record.forkedFrom ? { forkedFrom: record.forkedFrom } : {}),
        ...(record.attention?.question ? { waitingForInput: true } : {}),
        ...(record.origin ? { origin: record.origin } : {}),
      };
    });
  } catch (error) {
    throw toDatabaseError(error, action);
  }
}
