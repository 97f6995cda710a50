import "server-only";
import { randomUUID } from "node:crypto";
import { PrismaRunSink, prisma, toJsonText } from "@/lib/db";
import { runWorkflow, type EngineEnvironment } from "@/lib/engine";
import type { Workflow } from "@/lib/graph";
import { withOtelExport } from "@/lib/trace/otel/live-export";

/**
 * Starts runs in the background of this server process and keeps one
 * AbortController per running run, so a later request can cancel it. This
 * is where the database (the sink) and the engine meet.
 *
 * The map lives on globalThis: Next may load this module more than once
 * (one copy per server bundle), and every copy must see the same runs.
 */
const holder = globalThis as typeof globalThis & { switchboardActiveRuns?: Map<string, AbortController> };

function activeRuns(): Map<string, AbortController> {
  holder.switchboardActiveRuns ??= new Map();
  return holder.switchboardActiveRuns;
}

export interface LaunchRequest {
  workflowId: string;
  workflow: Workflow;
  input: Record<string, unknown>;
  env: EngineEnvironment;
}

/**
 * Writes the Run row (status running, the document frozen), starts the
 * engine without waiting for it, and returns the run's id at once. Whatever
 * happens later ends the row: the engine's own run-end, or — if the engine
 * or the database failed underneath it — a failed status with the reason.
 */
export async function launchRun(request: LaunchRequest): Promise<string> {
  const runId = randomUUID();
  await prisma().run.create({
    data: { id: runId, workflowId: request.workflowId, document: toJsonText(request.workflow), input: toJsonText(request.input), status: "running" },
  });
  const controller = new AbortController();
  activeRuns().set(runId, controller);
  // Also exported live as OpenTelemetry spans when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const sink = withOtelExport(new PrismaRunSink(prisma(), { document: request.workflow }), { workflowName: request.workflow.name });
  void runWorkflow({ runId, workflowId: request.workflowId, workflow: request.workflow, input: request.input, sink, env: request.env, signal: controller.signal })
    .catch((error: unknown) => endBrokenRun(runId, error))
    .finally(() => activeRuns().delete(runId));
  return runId;
}

/** Asks a run of this process to stop; false when this process is not running it. */
export function abortRun(runId: string): boolean {
  const controller = activeRuns().get(runId);
  if (!controller) return false;
  controller.abort();
  return true;
}

/** The engine never throws for the user's mistakes; this is for the rest (a database that went away). */
async function endBrokenRun(runId: string, error: unknown): Promise<void> {
  const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
  console.error(`run ${runId} stopped: ${reason}`, error);
  try {
    await prisma().run.updateMany({ where: { id: runId, status: "running" }, data: { status: "failed", error: `the run could not be recorded: ${reason}`, endedAt: new Date() } });
    await prisma().nodeRun.updateMany({ where: { runId, status: "running" }, data: { status: "failed", error: "the run stopped", endedAt: new Date() } });
  } catch (secondError) {
    console.error(`run ${runId}: could not mark it failed`, secondError);
  }
}
