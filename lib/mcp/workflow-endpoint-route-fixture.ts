import { afterAll, beforeAll, vi } from "vitest";
import { temporaryAppDatabase } from "../db/temporary-app-database";
import type { WorkflowInput } from "../graph";
import type { WorkflowEndpointSessions } from "./workflow-endpoint-sessions";

/**
 * The app's MCP route on a temporary database holding the "Unit desk"
 * workflow, shared by the tests of both protocol eras. Importing this module
 * registers the hooks.
 */

// The route and the app's wiring are server-only (never in a browser bundle); here they run in Node.
vi.mock("server-only", () => ({}));

export const token = "test-token-0123456789abcdef";
export const workflowId = "unit-desk";
export const endpointUrl = `http://127.0.0.1:3000/api/mcp/${workflowId}`;

/** Two flows on one canvas: the unit converter (a service node) and a Task Start whose sub-flow asks an offline agent that uses it. */
export const document = {
  version: 1,
  name: "Unit desk",
  description: "Unit conversions for outside hosts.",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "agent", type: "offline-agent", position: { x: 300, y: 0 }, config: { maxTurns: 4 } },
    { id: "end", type: "end", position: { x: 600, y: 0 }, config: {} },
    { id: "converter", type: "unit-converter", position: { x: 300, y: 200 }, config: {} },
    {
      id: "ask",
      type: "task-start",
      position: { x: 0, y: 400 },
      config: { title: "Answer a unit question", description: "Answers a question about units with the unit converter.", inputs: [{ name: "question", type: "string", required: true }] },
    },
    { id: "task-agent", type: "offline-agent", position: { x: 300, y: 400 }, config: { maxTurns: 4 } },
    { id: "ask-end", type: "task-end", position: { x: 600, y: 400 }, config: {} },
  ],
  edges: [
    { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "agent", targetHandle: "prompt" },
    { id: "e2", kind: "signal", source: "agent", sourceHandle: "answer", target: "end", targetHandle: "result" },
    { id: "e3", kind: "service", source: "converter", sourceHandle: "mcpService", target: "agent", targetHandle: "mcpService" },
    { id: "e4", kind: "signal", source: "ask", sourceHandle: "question", target: "task-agent", targetHandle: "prompt" },
    { id: "e5", kind: "signal", source: "task-agent", sourceHandle: "answer", target: "ask-end", targetHandle: "result" },
    { id: "e6", kind: "service", source: "converter", sourceHandle: "mcpService", target: "task-agent", targetHandle: "mcpService" },
  ],
} satisfies WorkflowInput;

type Route = typeof import("../../app/api/mcp/[workflowId]/route");
let route: Route;
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
}, 60_000);

// Runs before the database's own afterAll (after hooks run in reverse): the sessions close while it is open.
afterAll(async () => {
  await (globalThis as { switchboardMcpSessions?: WorkflowEndpointSessions }).switchboardMcpSessions?.closeAll();
  if (savedToken === undefined) delete process.env.SWITCHBOARD_MCP_TOKEN;
  else process.env.SWITCHBOARD_MCP_TOKEN = savedToken;
});

