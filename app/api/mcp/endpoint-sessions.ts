import "server-only";
import { getWorkflow } from "@/lib/db";
import { parseWorkflow } from "@/lib/graph";
import { createWorkflowEndpoint, type McpHost, type WorkflowEndpoint } from "@/lib/mcp/workflow-endpoint";
import { EndpointRefusal, WorkflowEndpointSessions } from "@/lib/mcp/workflow-endpoint-sessions";
import { appEnvironment } from "@/app/runs/run-environment";
import { openOutsideRun, runOutsideTask } from "./outside-runs";

/**
 * The open MCP sessions of this server process. On globalThis: Next may
 * load this module more than once (one copy per server bundle), and every
 * copy must see the same sessions.
 */
const holder = globalThis as typeof globalThis & { switchboardMcpSessions?: WorkflowEndpointSessions };

export function endpointSessions(): WorkflowEndpointSessions {
  holder.switchboardMcpSessions ??= new WorkflowEndpointSessions();
  return holder.switchboardMcpSessions;
}

/**
 * A new session's endpoint for a saved workflow: the document as it is
 * saved now (the session keeps it: a host reconnects to see later edits),
 * the app's environment for the service nodes (node types, credentials
 * from the credential store), and runs written to the database: one Run
 * per outside call.
 */
export async function openWorkflowEndpoint(workflowId: string, host?: McpHost): Promise<WorkflowEndpoint> {
  const record = await getWorkflow(workflowId);
  if (!record) throw new EndpointRefusal(404, `There is no workflow "${workflowId}"; check the id in the endpoint's URL (/api/mcp/<workflow id>).`);
  const parsed = parseWorkflow(record.document);
  if (!parsed.ok) {
    const problems = parsed.problems.slice(0, 3).map((problem) => problem.message).join("; ");
    throw new EndpointRefusal(409, `The workflow "${workflowId}" has a document that is not valid (${problems}); fix it on the canvas.`);
  }
  const target = { workflowId: record.id, workflow: parsed.workflow };
  const env = await appEnvironment(record.id);
  const endpoint = createWorkflowEndpoint({
    ...target,
    env,
    host,
    openRun: (call) => openOutsideRun(target, call),
    runTask: (call, request) => runOutsideTask(target, call, request),
  });
  return {
    ...endpoint,
    async close() {
      await endpoint.close();
      await env.dispose?.();
    },
  };
}
