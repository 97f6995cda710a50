import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryAppDatabase } from "../../../testing/db/temporary-app-database.fixture";
import type { WorkflowEndpointSessions } from "../../mcp/workflow-endpoint-sessions";
import { flushOtelExport } from "./live-export";
import { startOtlpReceiver, type OtlpReceiver } from "../../../testing/trace/otlp-receiver.fixture";

const token = "test-token-0123456789abcdef";
const workflowId = "traced-desk";
const hostTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
const hostSpan = "00f067aa0ba902b7";
const document = { version: 1, name: "Traced desk", nodes: [{ id: "converter", type: "unit-converter", position: { x: 0, y: 0 }, config: {} }], edges: [] };

type Route = typeof import("../../../app/api/mcp/[workflowId]/route");
let route: Route;
let receiver: OtlpReceiver;
const database = temporaryAppDatabase();
const saved = { ...process.env };

/** TEST DOUBLE for the network: fetch goes straight to the route handler, as Next would call it. */
const routeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const handler = { POST: route.POST, GET: route.GET, DELETE: route.DELETE }[request.method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve({ workflowId }) });
};

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  Object.assign(process.env, { SWITCHBOARD_MCP_TOKEN: token, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
  await database.client.workflow.create({ data: { id: workflowId, name: document.name, document: JSON.stringify(document) } });
  route = await import("../../../app/api/mcp/[workflowId]/route");
}, 60_000);

afterAll(async () => {
  await (globalThis as { switchboardMcpSessions?: WorkflowEndpointSessions }).switchboardMcpSessions?.closeAll();
  for (const name of ["SWITCHBOARD_MCP_TOKEN", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await receiver?.close();
});

describe("an outside host's call, exported live", () => {
  it("joins the host's trace: the run's span is a child of the span its traceparent names", async () => {
    const client = new Client({ name: "traced-host", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:3000/api/mcp/${workflowId}`), { fetch: routeFetch, requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const result = (await client.callTool({ name: "convertUnits", arguments: { value: 26.2, from: "mile", to: "kilometre" }, _meta: { traceparent: `00-${hostTrace}-${hostSpan}-01` } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    await client.close();
    await flushOtelExport();
    const spans = await receiver.waitForSpans(2);
    const run = spans.find((span) => span.name === "invoke_workflow Traced desk")!;
    expect(run).toMatchObject({ traceId: hostTrace, parentSpanId: hostSpan, attributes: { "gen_ai.operation.name": "invoke_workflow", "switchboard.workflow.id": workflowId } });
    expect(spans.find((span) => span.name === "execute_tool convertUnits")).toMatchObject({ traceId: hostTrace, parentSpanId: run.spanId, attributes: { "switchboard.caller": "mcp-host:traced-host" } });
  }, 60_000);
});
