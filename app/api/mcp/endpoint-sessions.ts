import "server-only";
import { getWorkflow, prisma } from "@/lib/db/app";
import { PrismaEndpointSessionStore, PrismaTaskStore } from "@/lib/db";
import { parseWorkflow } from "@/lib/graph";
import { createWorkflowEndpoint, EndpointRefusal, type McpHost, type WorkflowEndpoint, WorkflowEndpointSessions } from "@/lib/mcp";
import { runEnvironment } from "@/lib/runs";
import { openOutsideRun, queueOutsideTask } from "@/lib/runs/outside-runs";

/**
 * The MCP sessions this server process has cached. The sessions themselves
 * are records in the database, so any process serves any of them; the
 * cache saves rebuilding a session's endpoint on every request. On
 * globalThis: Next may load this module more than once (one copy per
 * server bundle), and every copy must share one cache.
 */
const holder = globalThis as typeof globalThis & { switchboardMcpSessions?: WorkflowEndpointSessions };

export function endpointSessions(): WorkflowEndpointSessions {
  holder.switchboardMcpSessions ??= new WorkflowEndpointSessions({ store: new PrismaEndpointSessionStore(prisma), idleMs: sessionIdleMs() });
  return holder.switchboardMcpSessions;
}

/** SWITCHBOARD_MCP_SESSION_IDLE_MINUTES: how long a session nobody uses (and with no task working) stays open; default 30. */
export function sessionIdleMs(value = process.env.SWITCHBOARD_MCP_SESSION_IDLE_MINUTES): number {
  if (value === undefined || value.trim() === "") return 30 * 60_000;
  const minutes = Number(value);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    console.warn(`SWITCHBOARD_MCP_SESSION_IDLE_MINUTES must be a number of minutes above 0 (got "${value}"); using 30`);
    return 30 * 60_000;
  }
  return minutes * 60_000;
}

/**
 * A new session's endpoint for a saved workflow: the document as it is
 * saved now (the session keeps it: a host reconnects to see later edits),
 * the app's environment for the service nodes (node types, credentials
 * from the credential store), runs written to the database (one Run per
 * outside call; a task call's Run is queued for a worker), and tasks
 * stored under `taskScope`.
 */
export async function openWorkflowEndpoint(workflowId: string, host: McpHost | undefined, taskScope: string): Promise<WorkflowEndpoint> {
  const record = await getWorkflow(workflowId);
  if (!record) throw new EndpointRefusal(404, `There is no workflow "${workflowId}"; check the id in the endpoint's URL (/api/mcp/<workflow id>).`);
  const parsed = parseWorkflow(record.document);
  if (!parsed.ok) {
    const problems = parsed.problems.slice(0, 3).map((problem) => problem.message).join("; ");
    throw new EndpointRefusal(409, `The workflow "${workflowId}" has a document that is not valid (${problems}); fix it on the canvas.`);
  }
  const target = { workflowId: record.id, workflow: parsed.workflow };
  const env = await runEnvironment({ prisma: prisma() }, record.id);
  const endpoint = createWorkflowEndpoint({
    ...target,
    env,
    host,
    // The tasks live in the database under the session's (or the person's) scope: any process reads and cancels them.
    taskStore: new PrismaTaskStore(prisma, () => taskScope),
    openRun: (call) => openOutsideRun(target, call),
    // A Task Start's sub-flow is a queued run: a worker runs it, and the task outlives this process.
    queueTask: (call, task) => queueOutsideTask(target, call, task),
  });
  return {
    ...endpoint,
    async close() {
      await endpoint.close();
      await env.dispose?.();
    },
  };
}
