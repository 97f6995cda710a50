import "server-only";
import { type AttentionRequest, nodeStatuses, runStatuses, type RunProgress, runStage, type NodeStatus, type RunStatus } from "../trace";
import { prisma } from "./client";
import { toDatabaseError } from "./database-error";
import { fromJsonText, objectFromJsonText } from "./json-text";

/**
 * The canvas's view of a run (RunProgress): its own small query, apart from
 * the trace's, selecting only the columns the canvas shows. Node runs inside
 * tasks are left out (the canvas shows each node of the workflow once); of
 * a node that ran several times, its latest run. null when there is no run.
 * The run row is read first, so a run that says it ended has all its rows here.
 */
export async function getRunProgress(runId: string, options: { afterSequence?: number } = {}): Promise<RunProgress | null> {
  try {
    const run = await prisma().run.findUnique({ where: { id: runId }, select: { id: true, status: true, error: true, outputs: true, endedAt: true, attention: true, workerId: true } });
    if (!run) return null;
    const nodeRuns = await prisma().nodeRun.findMany({
      where: { runId, parentToolCallId: null },
      orderBy: [{ startedAt: "asc" }, { id: "asc" }],
      select: { nodeId: true, status: true, outputs: true, error: true },
    });
    const toolCalls = await prisma().toolCall.findMany({
      where: { runId, ...(options.afterSequence ? { sequence: { gt: options.afterSequence } } : {}) },
      orderBy: [{ sequence: "asc" }],
      select: { id: true, sequence: true, tool: true, server: true, caller: true, isError: true, durationMs: true },
    });
    const latest = new Map<string, RunProgress["nodeRuns"][number]>();
    for (const row of nodeRuns) {
      const previous = latest.get(row.nodeId);
      // A node still running in one of its runs shows running.
      if (previous?.status === "running") continue;
      latest.set(row.nodeId, { nodeId: row.nodeId, status: known(row.status, nodeStatuses, "failed"), outputs: objectFromJsonText(row.outputs), error: row.error });
    }
    return {
      run: { id: run.id, status: known(run.status, runStatuses, "failed"), error: run.error, outputs: objectFromJsonText(run.outputs), endedAt: run.endedAt?.toISOString() ?? null, ...waitingFor(run.status, run.attention), ...stageOf(run, nodeRuns) },
      nodeRuns: [...latest.values()],
      toolCalls,
    };
  } catch (error) {
    throw toDatabaseError(error, `read the progress of run "${runId}"`);
  }
}

/** A needs-attention run whose call waits for approval: the agent and tool, for the canvas. */
function waitingFor(status: string, attention: string | null): Pick<RunProgress["run"], "waitingForApproval"> {
  if (status !== "needs-attention" || !attention) return {};
  const request = fromJsonText(attention) as Partial<AttentionRequest> | null;
  if (!request?.approval || typeof request.nodeId !== "string") return {};
  return { waitingForApproval: { nodeId: request.nodeId, server: String(request.server ?? ""), tool: String(request.tool ?? "") } };
}

function stageOf(run: { status: string; workerId: string | null }, nodeRuns: ReadonlyArray<{ nodeId: string; status: string }>): Pick<RunProgress["run"], "stage"> {
  const stage = runStage(run, nodeRuns);
  return stage ? { stage } : {};
}

function known<T extends RunStatus | NodeStatus>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}
