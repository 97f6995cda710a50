import "server-only";
import { randomUUID } from "node:crypto";
import { PrismaRunSink } from "../db";
import { prisma } from "../db/app";
import { type RunOrigin, stableId } from "../run-model";
import type { Workflow } from "../graph";
import { hostApprover, type OutsideCall, outsideCallInput, type OutsideRun, type QueuedOutsideTask } from "../mcp";
import { type AttentionRequest, otelExportFromEnv, withOtelExport } from "../trace";
import { newWorkerId, queueTimingsFromEnvironment } from "../queue";
import { runService } from "./process-runs";

/** The workflow an outside call ran against: its Run freezes this document. */
export interface OutsideCallWorkflow {
  workflowId: string;
  workflow: Workflow;
}

/** This web process, as the holder of the service calls it serves (named like a worker, so a start-up sweep can tell it is gone). */
const servingProcess = newWorkerId();

/**
 * The Run of one outside service call: written `running` now (the workflow
 * frozen, the call as its input under `mcpHost`), its one ToolCall row
 * written by the service node's server, then ended completed or failed.
 * The process serving the call holds the Run by a lease it renews like a
 * worker's: if it dies, the lease runs out and a worker that takes the Run
 * up ends it failed (the host's request died with the process), on any
 * database, instead of leaving it `running` for good.
 */
export async function openOutsideRun(target: OutsideCallWorkflow, call: OutsideCall): Promise<OutsideRun> {
  const runId = randomUUID();
  // Exported live when OTEL_EXPORTER_OTLP_ENDPOINT is set, under the host's span when its call named one.
  const { leaseMs, heartbeatMs } = queueTimingsFromEnvironment();
  const holder = () => ({ workerId: servingProcess, leaseExpiresAt: new Date(Date.now() + leaseMs) });
  // The lease is written with the Run's start: a Run is never running without a holder whose lease can run out.
  const sink = withOtelExport(new PrismaRunSink(prisma(), { document: target.workflow, holder, origin: hostOrigin(call) }), { workflowName: target.workflow.name, remoteParent: call.traceParent }, await otelExportFromEnv());
  await sink.runStart({ runId, workflowId: target.workflowId, input: outsideCallInput(call), startedAt: new Date().toISOString() });
  // Renewed a few times per lease, and only while this process still holds the Run (a worker that took it over keeps it).
  const renew = () => prisma().run.updateMany({ where: { id: runId, status: "running", workerId: servingProcess }, data: { leaseExpiresAt: holder().leaseExpiresAt } });
  const heartbeat = setInterval(() => void renew().catch(() => undefined), Math.max(heartbeatMs, leaseMs / 3));
  heartbeat.unref();
  return {
    runId,
    recordCall: async (row) => sink.toolCall({ ...row, runId }),
    end: async (outcome) => {
      clearInterval(heartbeat);
      await sink.runEnd({
        runId,
        status: outcome.ok ? "completed" : "failed",
        outputs: outcome.ok ? { result: outcome.result } : {},
        error: outcome.ok ? null : outcome.error,
        endedAt: new Date().toISOString(),
      });
    },
  };
}

/**
 * One outside task call as a queued Run, like a run started from the app:
 * the frozen document, the call as its input (`mcpHost`, kind `task`),
 * written queued in one transaction with the task's link to it, and a
 * worker woken. The worker runs the Task Start's sub-flow with the run's
 * journal (app/runs/outside-task-run.ts), writes the call's row and ends the
 * task, so a web process or worker that dies costs a resume, not the task.
 * With `follow`, this process then follows the run (followOutsideRun) while
 * `signal` lets it: a host that can be asked decides the run's approvals.
 */
export async function queueOutsideTask(target: OutsideCallWorkflow, call: OutsideCall, task: { taskId: string; signal: AbortSignal; follow: boolean }): Promise<QueuedOutsideTask> {
  const runId = randomUUID();
  // The endpoint checked the call's arguments against the Task Start's fields; its run's input is the call itself.
  const started = await runService().start(
    { workflowId: target.workflowId, document: target.workflow, input: outsideCallInput(call), origin: hostOrigin(call), runId, check: "document" },
    { together: [[`UPDATE "McpEndpointTask" SET "runId" = ? WHERE "id" = ?`, [runId, task.taskId]]] },
  );
  if (!started.ok) throw new Error(started.error);
  // A tasks/cancel that landed before the link could not reach the run: it is cancelled now.
  if ((await prisma().mcpEndpointTask.findUnique({ where: { id: task.taskId }, select: { status: true } }))?.status === "cancelled") await runService().cancel(runId);
  // Nobody to ask and nobody waiting here (a task of a host that cannot be asked): the workers and the stored task do the rest.
  return { runId, followed: task.follow ? followOutsideRun(runId, call, task.signal) : Promise.resolve({}) };
}

/** How often the process that took a task call reads its run while following it. */
const followEveryMs = 250;

/**
 * Follows a queued outside run from the process that holds the host's
 * connection, reading only the database: settles when the run has ended,
 * or when it waits for a person this host did not decide for (`waitsFor`:
 * what it waits on). A host that can be asked (MCP elicitation) is asked
 * each approval the run waits on, once, and its decision is recorded as a
 * person's would be (`<call key>/decision`, the run queued again); cancel,
 * no answer, or a host that cannot be asked leave the call to a person in
 * the app. This is the one part of a task bound to the process: the host's
 * questions travel on its connection to this process.
 */
export async function followOutsideRun(runId: string, call: OutsideCall, signal: AbortSignal): Promise<{ waitsFor?: string }> {
  const approve = call.askHost ? hostApprover(call.askHost, call.host.person ? `${call.host.name} (${call.host.person})` : call.host.name) : undefined;
  const asked = new Set<string>();
  while (!signal.aborted) {
    const run = await prisma().run.findUnique({ where: { id: runId }, select: { status: true, attention: true } });
    if (!run || ["completed", "failed", "cancelled"].includes(run.status)) return {};
    if (run.status === "needs-attention" && run.attention) {
      const attention = JSON.parse(run.attention) as AttentionRequest;
      if (!approve || !attention.approval || asked.has(attention.key)) return { waitsFor: attention.message };
      asked.add(attention.key);
      const decision = await approve({ tool: attention.tool, server: attention.server, arguments: attention.arguments, approval: attention.approval });
      if (!decision) return { waitsFor: attention.message };
      const recorded = await runService().decide(stableId(runId, attention.key), decision.action === "approve" ? { action: "approve", by: decision.by } : { action: "deny", reason: decision.reason, by: decision.by });
      if (!recorded.ok) return { waitsFor: `${attention.message} (${recorded.error})` };
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, followEveryMs).unref?.());
  }
  return {};
}

/** An outside host's call, as its run's origin: the host, and the person its token names. */
function hostOrigin(call: OutsideCall): RunOrigin {
  return { kind: "mcp-host", by: call.host.person ?? call.host.name, host: `${call.host.name} ${call.host.version}`.trim() };
}
