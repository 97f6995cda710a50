/**
 * An outside MCP host's task call, as a worker runs it: the endpoint
 * (lib/runs/outside-runs.ts) wrote it as a queued Run whose input says an
 * outside host made it (`mcpHost`, kind `task`); the worker runs that Task
 * Start's sub-flow with the run's journal, like any run, so a killed worker
 * or web process costs a resume, not the task. Once the sub-flow has ended,
 * the worker writes the call's one trace row, then the run's end, then the
 * task's status and result (settleTasksOfRun). Not server-only: scripts/worker.ts
 * runs it outside Next.
 */
import { type PrismaClient, settleTasksOfRun, type DatabaseRunJournal } from "../db";
import type { RunRequest } from "../engine";
import { stableId } from "../run-model";
import type { RunEndEvent, RunSink } from "../trace";

/** The call an outside host made, as its Run records it (see outsideCallInput in lib/mcp/workflow-endpoint.ts). */
export interface OutsideTaskCall {
  client: string;
  tool: string;
  /** The Task Start that answers it. */
  server: string;
  arguments: Record<string, unknown>;
}

/** The outside task call a run's input records, or undefined for any other run. */
export function outsideTaskOf(input: Record<string, unknown>): OutsideTaskCall | undefined {
  const host = input.mcpHost as Partial<Record<keyof OutsideTaskCall | "kind", unknown>> | undefined;
  if (!host || host.kind !== "task" || typeof host.server !== "string" || typeof host.tool !== "string") return undefined;
  const args = host.arguments !== null && typeof host.arguments === "object" && !Array.isArray(host.arguments) ? (host.arguments as Record<string, unknown>) : {};
  return { client: typeof host.client === "string" ? host.client : "unknown", tool: host.tool, server: host.server, arguments: args };
}

/** The id of the call's trace row: derived from the run, so every resume nests the sub-flow under the same row and writes that row once. */
export function hostCallRowId(runId: string): string {
  return stableId(runId, "mcp-host/call");
}

/** What runWorkflow needs to run the call's sub-flow instead of the workflow's graph. */
export function outsideTaskRequest(runId: string, call: OutsideTaskCall): NonNullable<RunRequest["task"]> {
  return { taskStartId: call.server, args: call.arguments, parentToolCallId: hostCallRowId(runId) };
}

/**
 * The journal as the run's sink, except that the run's end is held until
 * `finish`: the call's row comes after the engine is done, and a run that
 * says it ended has its whole trace.
 */
export class HeldEndSink implements RunSink {
  private held: RunEndEvent | undefined;

  constructor(private readonly journal: DatabaseRunJournal) {}

  runStart: RunSink["runStart"] = (event) => this.journal.runStart(event);
  nodeStart: RunSink["nodeStart"] = (event) => this.journal.nodeStart(event);
  toolCall: RunSink["toolCall"] = (row) => this.journal.toolCall(row);
  nodeEnd: RunSink["nodeEnd"] = (event) => this.journal.nodeEnd(event);
  taintRecord: NonNullable<RunSink["taintRecord"]> = (record) => this.journal.taintRecord(record);

  runEnd(event: RunEndEvent): void {
    this.held = event;
  }

  /**
   * Writes the call's row (when the run ended; a run waiting for a person
   * has no row yet), then the run's end, then brings the task to it. Each
   * write is fenced by the worker's claim and idempotent: a worker that dies
   * in between leaves the run running, and the one that resumes it replays
   * the sub-flow from the journal and writes the same row and end.
   */
  async finish(options: { prisma: PrismaClient; call: OutsideTaskCall; startedAt: Date }): Promise<void> {
    const event = this.held;
    if (!event) return;
    this.held = undefined;
    if (event.status !== "needs-attention") {
      const error = event.status === "completed" ? null : event.status === "cancelled" ? "the task was cancelled" : (event.error ?? `the task ended ${event.status}`);
      await this.journal.toolCall({
        id: hostCallRowId(event.runId),
        runId: event.runId,
        nodeRunId: null,
        tool: options.call.tool,
        server: options.call.server,
        caller: `mcp-host:${options.call.client}`,
        arguments: options.call.arguments,
        // The held end passed the engine's redaction: its outputs and error are what may be shown.
        result: error === null ? event.outputs.result : null,
        error,
        isError: error !== null,
        tainted: false,
        startedAt: options.startedAt.toISOString(),
        durationMs: Math.max(0, Date.now() - options.startedAt.getTime()),
        inputTokens: null,
        outputTokens: null,
      });
    }
    await this.journal.runEnd({ ...event, endedAt: new Date().toISOString() });
    await settleTasksOfRun(options.prisma, event.runId);
  }
}
