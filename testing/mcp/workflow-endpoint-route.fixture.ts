import { afterAll, beforeAll } from "vitest";
import { temporaryAppDatabase } from "../db/temporary-app-database.fixture";
import { unitDeskDocument as document } from "../../lib/mcp/unit-desk-document";
import type { WorkflowEndpointSessions } from "../../lib/mcp/workflow-endpoint-sessions";
import type { WorkerRuntime } from "../../lib/runs/worker-runtime";

/**
 * The app's MCP route on a temporary database holding the "Unit desk"
 * workflow, shared by the tests of both protocol eras, with a worker in
 * this process as `npm start`'s embedded one (a Task Start's sub-flow is a
 * queued run). Importing this module registers the hooks.
 */

export const token = "test-token-0123456789abcdef";
export const workflowId = "unit-desk";
export const endpointUrl = `http://127.0.0.1:3000/api/mcp/${workflowId}`;

export { document };

type Route = typeof import("../../app/api/mcp/[workflowId]/route");
let route: Route;
let worker: WorkerRuntime | undefined;
// The route reads the app's shared client, which opens this database too.
export const database = temporaryAppDatabase();
const savedToken = process.env.SWITCHBOARD_MCP_TOKEN;

/** TEST DOUBLE for the network: fetch goes straight to the route handler's exported functions, as Next would call them. */
export const routeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const id = decodeURIComponent(new URL(request.url).pathname.split("/").at(-1) ?? "");
  const handler = { POST: route.POST, GET: route.GET, DELETE: route.DELETE }[request.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve({ workflowId: id }) });
};

export async function runsOf(kind: "service" | "task") {
  const runs = await database.client.run.findMany({ where: { workflowId }, orderBy: { startedAt: "asc" }, include: { toolCalls: true, nodeRuns: true } });
  return runs.filter((run) => (JSON.parse(run.input) as { mcpHost?: { kind: string } }).mcpHost?.kind === kind);
}

beforeAll(async () => {
  process.env.SWITCHBOARD_MCP_TOKEN = token;
  await database.client.workflow.create({ data: { id: workflowId, name: document.name, document: JSON.stringify(document) } });
  route = await import("../../app/api/mcp/[workflowId]/route");
  const { startWorkerRuntime } = await import("../../lib/runs/worker-runtime");
  worker = startWorkerRuntime({ databaseUrl: database.url, timings: { leaseMs: 10_000, heartbeatMs: 100, pollMs: 50 }, webhook: null, concurrency: 4 });
}, 60_000);

// Runs before the database's own afterAll (after hooks run in reverse): the sessions close while it is open.
afterAll(async () => {
  await (globalThis as { switchboardMcpSessions?: WorkflowEndpointSessions }).switchboardMcpSessions?.closeAll();
  await worker?.stop({ handBack: false });
  if (savedToken === undefined) delete process.env.SWITCHBOARD_MCP_TOKEN;
  else process.env.SWITCHBOARD_MCP_TOKEN = savedToken;
});

