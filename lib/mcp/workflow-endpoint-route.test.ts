import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, CallToolResultSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { buildTraceTree } from "../trace/trace-tree";
import { until } from "../../testing/mcp/endpoint-web-process.fixture";
import { waitingDeskDocument } from "./unit-desk-document";
import { database, endpointUrl, routeFetch, runsOf, token, workflowId } from "../../testing/mcp/workflow-endpoint-route.fixture";
import type { WorkflowEndpointSessions } from "./workflow-endpoint-sessions";

async function connectHost(name: string, headers: Record<string, string> = { Authorization: `Bearer ${token}` }) {
  const client = new Client({ name, version: "1.2.3" });
  const transport = new StreamableHTTPClientTransport(new URL(endpointUrl), { fetch: routeFetch, requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

describe("the workflow MCP endpoint (app/api/mcp/[workflowId])", () => {
  it("lists the service nodes' methods and the titled Task Starts, and answers a method with its result", async () => {
    const { client, transport } = await connectHost("test-host");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["convertUnits", "listUnits", "answer_a_unit_question"]);
    expect(tools.find((tool) => tool.name === "answer_a_unit_question")).toMatchObject({ execution: { taskSupport: "optional" }, inputSchema: { properties: { question: { type: "string" } } } });
    expect(tools.find((tool) => tool.name === "convertUnits")?.outputSchema).toMatchObject({ required: expect.arrayContaining(["result"]) });

    const result = (await client.callTool({ name: "convertUnits", arguments: { value: 26.2, from: "mile", to: "kilometre" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ value: 26.2, from: "mile", to: "kilometre", dimension: "length" });
    expect((result.structuredContent as { result: number }).result).toBeCloseTo(42.165, 2);
    expect(result.content).toEqual([{ type: "text", text: expect.stringContaining('"dimension":"length"') }]);

    // One Run for the call: completed, marked as an outside host's, with exactly one row written by the tool side.
    const [run] = await runsOf("service");
    expect(run).toMatchObject({ workflowId, status: "completed", error: null });
    expect(JSON.parse(run.input)).toEqual({
      mcpHost: { client: "test-host", clientVersion: "1.2.3", kind: "service", tool: "convertUnits", server: "converter", arguments: { value: 26.2, from: "mile", to: "kilometre" } },
    });
    expect(JSON.parse(run.document)).toMatchObject({ name: "Unit desk" });
    expect(run.toolCalls).toHaveLength(1);
    expect(run.toolCalls[0]).toMatchObject({ caller: "mcp-host:test-host", nodeRunId: null, tool: "convertUnits", server: "converter", isError: false });
    expect(JSON.parse(run.toolCalls[0].result ?? "null")).toMatchObject({ dimension: "length" });
    expect(run.nodeRuns).toEqual([]);
    // DELETE ends the session and closes what it opened.
    await transport.terminateSession();
    await client.close();
    expect((globalThis as { switchboardMcpSessions?: WorkflowEndpointSessions }).switchboardMcpSessions?.size).toBe(0);
  });

  it("answers a bad argument and an unknown tool with protocol errors, and still traces the call", async () => {
    const { client, transport } = await connectHost("test-host");
    const before = (await runsOf("service")).length;
    const bad = await client.callTool({ name: "convertUnits", arguments: { value: "many", from: "mile", to: "parsec" } }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(McpError);
    expect(bad).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(/^MCP error -32602: Invalid arguments for convertUnits: /) });
    const unknown = await client.callTool({ name: "teleport", arguments: {} }).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining("Unknown tool 'teleport'") });

    // A method that ran and failed is a result the host reads (isError), not a protocol error.
    const mismatch = (await client.callTool({ name: "convertUnits", arguments: { value: 1, from: "mile", to: "kilogram" } })) as CallToolResult;
    expect(mismatch).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringMatching(/length.*mass|mass.*length/) }] });

    const runs = await runsOf("service");
    expect(runs).toHaveLength(before + 2);
    expect(runs.at(-1)).toMatchObject({ status: "failed", error: mismatch.content[0].type === "text" ? mismatch.content[0].text : "" });
    expect(runs.at(-1)?.toolCalls).toEqual([expect.objectContaining({ caller: "mcp-host:test-host", isError: true })]);
    const failed = runs.at(-2)!;
    expect(failed).toMatchObject({ status: "failed", error: expect.stringContaining("Invalid arguments for convertUnits") });
    expect(failed.toolCalls).toEqual([expect.objectContaining({ caller: "mcp-host:test-host", isError: true, nodeRunId: null, error: expect.stringContaining("Invalid arguments") })]);
    await transport.terminateSession();
    await client.close();
  });

  it("runs a Task Start as an MCP task to completion, its sub-flow nested under the call's row", async () => {
    const { client, transport } = await connectHost("task-host");
    await client.listTools();
    const messages = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: "answer_a_unit_question", arguments: { question: "Convert 26.2 mile to kilometre" } }, CallToolResultSchema)) {
      messages.push(message);
    }
    expect(messages[0]).toMatchObject({ type: "taskCreated", task: { status: "working" } });
    const last = messages.at(-1);
    expect(last?.type).toBe("result");
    const result = last?.type === "result" ? (last.result as CallToolResult) : undefined;
    expect(result?.isError).toBeFalsy();
    expect(result?.content).toEqual([{ type: "text", text: expect.stringContaining("42.16") }]);
    const taskId = messages[0].type === "taskCreated" ? messages[0].task.taskId : "";
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("completed");

    const [run] = await runsOf("task");
    expect(run).toMatchObject({ workflowId, status: "completed", error: null });
    expect(JSON.parse(run.input)).toMatchObject({ mcpHost: { client: "task-host", kind: "task", tool: "answer_a_unit_question", server: "ask" } });
    const taskRow = run.toolCalls.find((row) => row.server === "ask");
    expect(taskRow).toMatchObject({ caller: "mcp-host:task-host", nodeRunId: null, tool: "answer_a_unit_question", isError: false });
    // The sub-flow ran as this run's node runs, under the call's row; its agent called the converter from inside.
    const nested = run.nodeRuns.filter((nodeRun) => nodeRun.parentToolCallId === taskRow?.id);
    expect(nested.map((nodeRun) => nodeRun.nodeId).sort()).toEqual(["ask", "ask-end", "task-agent"]);
    expect(nested.every((nodeRun) => nodeRun.status === "completed")).toBe(true);
    const innerCall = run.toolCalls.find((row) => row.tool === "convertUnits");
    expect(innerCall).toMatchObject({ caller: "task-agent", nodeRunId: nested.find((nodeRun) => nodeRun.nodeId === "task-agent")?.id });
    expect(JSON.parse(run.outputs)).toEqual({ result: expect.stringContaining("42.16") });
    // The trace page's tree: the host's call at the top, the sub-flow it started under it.
    const { getRunTrace } = await import("../db/runs");
    const trace = await getRunTrace(run.id);
    const rows = buildTraceTree(trace!).rows.map((row) => `${"  ".repeat(row.depth)}${row.kind === "node" ? row.nodeRun.nodeId : row.kind === "call" ? `${row.call.tool}()` : row.kind}`);
    expect(rows).toEqual(["group", "  answer_a_unit_question()", "    ask", "    task-agent", "      convertUnits()", "    ask-end"]);
    await transport.terminateSession();
    await client.close();
  });

  it("answers a 2025-era host that calls a Task Start without a task by waiting for the sub-flow", async () => {
    const { client, transport } = await connectHost("plain-host");
    const result = (await client.callTool({ name: "answer_a_unit_question", arguments: { question: "Convert 3 mile to kilometre" } }, CallToolResultSchema, { timeout: 60_000 })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("4.82");
    const run = (await runsOf("task")).at(-1)!;
    expect(run.toolCalls.find((row) => row.server === "ask")).toMatchObject({ caller: "mcp-host:plain-host", isError: false });
    // The sub-flow was a queued run: a worker held it, and the stored task followed it.
    expect(run.workerId).toMatch(/:/);
    expect(await database.client.mcpEndpointTask.findFirst({ where: { runId: run.id } })).toMatchObject({ status: "completed" });
    await transport.terminateSession();
    await client.close();
  });

  it("cancels the task and its queued run when a 2025-era host gives up on a plain call of a Task Start", async () => {
    await database.client.workflow.create({ data: { id: "waiting-desk", name: waitingDeskDocument.name, document: JSON.stringify(waitingDeskDocument) } });
    const client = new Client({ name: "impatient-host", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(endpointUrl.replace(workflowId, "waiting-desk")), { fetch: routeFetch, requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    const controller = new AbortController();
    const call = client.callTool({ name: "wait_a_while", arguments: { payload: { n: 1 } } }, CallToolResultSchema, { signal: controller.signal, timeout: 60_000 });
    const task = await until(() => database.client.mcpEndpointTask.findFirst({ where: { runId: { not: null } }, orderBy: { createdAt: "desc" } }).then((row) => (row?.runId && row.status === "working" ? row : undefined)), "the call's task and its run");
    await until(() => database.client.nodeRun.findFirst({ where: { runId: task.runId!, nodeId: "wait-delay", status: "running" } }), "the delay to start");
    controller.abort();
    await expect(call).rejects.toThrow();
    const ended = await until(() => database.client.run.findUnique({ where: { id: task.runId! }, include: { toolCalls: true } }).then((run) => (run?.status === "cancelled" ? run : undefined)), "the run to end cancelled", 5_000);
    expect(ended.toolCalls.find((row) => row.server === "wait")).toMatchObject({ caller: "mcp-host:impatient-host", error: "the task was cancelled" });
    expect(await database.client.mcpEndpointTask.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: "cancelled" });
    await transport.terminateSession();
    await client.close();
  });

  it("is off without SWITCHBOARD_MCP_TOKEN, and refuses a missing or wrong token", async () => {
    const initialize = (headers: Record<string, string>) =>
      routeFetch(endpointUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
      });
    const missing = await initialize({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await missing.json()).toMatchObject({ error: { message: expect.stringContaining("Authorization: Bearer") } });
    expect((await initialize({ Authorization: "Bearer not-the-token-at-all" })).status).toBe(401);
    await expect(connectHost("no-token-host", {})).rejects.toThrow(/Missing or wrong bearer token/);

    delete process.env.SWITCHBOARD_MCP_TOKEN;
    try {
      const off = await initialize({ Authorization: `Bearer ${token}` });
      expect(off.status).toBe(401);
      const body = (await off.json()) as { error: { message: string } };
      expect(body.error.message).toContain("SWITCHBOARD_MCP_TOKEN is not set");
      expect(body.error.message).not.toMatch(/\n\s+at /);
    } finally {
      process.env.SWITCHBOARD_MCP_TOKEN = token;
    }
  });

  it("points OAuth-capable hosts at its protected-resource metadata, which says to send the bearer token", async () => {
    const refused = await routeFetch(endpointUrl, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: "{}" });
    expect(refused.status).toBe(401);
    const metadataUrl = `http://127.0.0.1:3000/.well-known/oauth-protected-resource/api/mcp/${workflowId}`;
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer realm="switchboard", error="invalid_token", error_description="send a Switchboard MCP token", resource_metadata="${metadataUrl}"`);
    const { GET } = await import("../../app/.well-known/oauth-protected-resource/api/mcp/[workflowId]/route");
    const metadata = await (await GET(new Request(metadataUrl), { params: Promise.resolve({ workflowId }) })).json();
    expect(metadata).toMatchObject({ resource: endpointUrl, authorization_servers: [], bearer_methods_supported: ["header"], resource_documentation: expect.stringContaining("SWITCHBOARD_MCP_TOKEN") });
    const { GET: authorizationServer } = await import("../../app/.well-known/oauth-authorization-server/[[...path]]/route");
    const none = await authorizationServer();
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error_description: expect.stringContaining("does not use OAuth") });
  });

  it("answers an unknown workflow and an unknown session with 404, GET with 405", async () => {
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const unknownWorkflow = await routeFetch("http://127.0.0.1:3000/api/mcp/no-such-workflow", {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(unknownWorkflow.status).toBe(404);
    expect(await unknownWorkflow.json()).toMatchObject({ error: { message: expect.stringContaining('no workflow "no-such-workflow"') } });
    const unknownSession = await routeFetch(endpointUrl, { method: "POST", headers: { ...headers, "Mcp-Session-Id": "gone" }, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) });
    expect(unknownSession.status).toBe(404);
    expect((await routeFetch(endpointUrl, { method: "GET", headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" } })).status).toBe(405);
  });
});
