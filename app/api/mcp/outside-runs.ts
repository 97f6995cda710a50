import "server-only";
import { randomUUID } from "node:crypto";
import { PrismaRunSink, prisma } from "@/lib/db";
import { type RunOutcome, runWorkflow } from "@/lib/engine";
import type { TaskRequest } from "@/lib/engine/run-context";
import type { Workflow } from "@/lib/graph";
import { hostApprover } from "@/lib/mcp/host-approver";
import { type OutsideCall, outsideCallInput, type OutsideRun, type OutsideTaskRun } from "@/lib/mcp/workflow-endpoint";
import type { RunEndEvent } from "@/lib/trace/run-events";
import { withOtelExport } from "@/lib/trace/otel/live-export";
import { redactSecrets } from "@/lib/trace/redact";
import { appEnvironment } from "@/app/runs/run-environment";

/** The workflow an outside call ran against: its Run freezes this document. */
export interface OutsideCallWorkflow {
  workflowId: string;
  workflow: Workflow;
}

/**
 * The Run of one outside service call: written `running` now (the workflow
 * frozen, the call as its input under `mcpHost`), its one ToolCall row
 * written by the service node's server, then ended completed or failed.
 */
export async function openOutsideRun(target: OutsideCallWorkflow, call: OutsideCall): Promise<OutsideRun> {
  const runId = randomUUID();
  // Exported live when OTEL_EXPORTER_OTLP_ENDPOINT is set, under the host's span when its call named one.
  const sink = withOtelExport(new PrismaRunSink(prisma(), { document: target.workflow }), { workflowName: target.workflow.name, remoteParent: call.traceParent });
  await sink.runStart({ runId, workflowId: target.workflowId, input: outsideCallInput(call), startedAt: new Date().toISOString() });
  return {
    runId,
    recordCall: async (row) => sink.toolCall({ ...row, runId }),
    end: async (outcome) =>
      sink.runEnd({
        runId,
        status: outcome.ok ? "completed" : "failed",
        outputs: outcome.ok ? { result: outcome.result } : {},
        error: outcome.ok ? null : outcome.error,
        endedAt: new Date().toISOString(),
      }),
  };
}

/**
 * One outside task call as a real run: the engine runs the Task Start's
 * sub-flow (runWorkflow's `task` mode) with the app's environment, its node
 * runs nested under the call's row. The run's end is held back until the
 * task server has written that row (`finish`), so a run that says it ended
 * has its whole trace. Never throws: a database that failed underneath
 * ends the run failed and the task with the reason.
 */
export async function runOutsideTask(target: OutsideCallWorkflow, call: OutsideCall, request: TaskRequest): Promise<OutsideTaskRun> {
  const runId = call.runId ?? randomUUID();
  const sink = new HeldEndSink(target.workflow);
  const exported = withOtelExport(sink, { workflowName: target.workflow.name, remoteParent: call.traceParent });
  // The engine redacts its own events; the task's row and its answer to the host are written out here,
  // so the credential values the run resolved are collected to redact them too.
  const secrets = new Set<string>();
  const env = await appEnvironment(target.workflowId);
  // A host that can be asked (MCP elicitation) decides the sub-flow's approvals; otherwise they wait for a person in the app.
  if (call.askHost) env.approveInline = hostApprover(call.askHost, call.host.person ? `${call.host.name} (${call.host.person})` : call.host.name);
  const resolveCredentials = env.credentials;
  env.credentials = async (nodeType, requirements) => {
    const values = await resolveCredentials(nodeType, requirements);
    for (const fields of Object.values(values)) for (const value of Object.values(fields)) if (value) secrets.add(value);
    return values;
  };
  let outcome: RunOutcome;
  try {
    outcome = await runWorkflow({
      runId,
      workflowId: target.workflowId,
      workflow: target.workflow,
      input: outsideCallInput(call),
      task: { taskStartId: request.taskStartId, args: request.args, parentToolCallId: request.parentToolCallId },
      sink: exported,
      env,
      signal: request.signal,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    console.error(`run ${runId} (an MCP host's task call) stopped: ${reason}`, error);
    await failBrokenRun(runId, reason);
    return { outcome: { ok: false, message: `the task's run could not be recorded: ${reason}` }, finish: async () => {} };
  }
  const redact = <T>(value: T): T => redactSecrets(value, [...secrets]);
  return {
    outcome: outcome.status === "completed" ? { ok: true, result: redact(outcome.outputs.result) } : { ok: false, message: redact(outcome.error ?? `the task ended ${outcome.status}`) },
    async finish(row) {
      try {
        await exported.toolCall(redact({ ...row, runId }));
      } finally {
        await sink.release();
      }
    },
  };
}

/** The database sink, except that the run's end waits for release(): the task's row comes after the engine is done. */
class HeldEndSink extends PrismaRunSink {
  private held: RunEndEvent | undefined;

  constructor(document: Workflow) {
    super(prisma(), { document });
  }

  override async runEnd(event: RunEndEvent): Promise<void> {
    this.held = event;
  }

  async release(): Promise<void> {
    const event = this.held;
    this.held = undefined;
    if (event) await super.runEnd({ ...event, endedAt: new Date().toISOString() });
  }
}

/** The engine never throws for the user's mistakes; this is for the rest (a database that went away). */
async function failBrokenRun(runId: string, reason: string): Promise<void> {
  try {
    await prisma().run.updateMany({ where: { id: runId, status: "running" }, data: { status: "failed", error: `the run could not be recorded: ${reason}`, endedAt: new Date() } });
    await prisma().nodeRun.updateMany({ where: { runId, status: "running" }, data: { status: "failed", error: "the run stopped", endedAt: new Date() } });
  } catch (secondError) {
    console.error(`run ${runId}: could not mark it failed`, secondError);
  }
}
