import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { describe, expect, it } from "vitest";
import { endpointUrl, routeFetch, runsOf, token } from "../../testing/mcp/workflow-endpoint-route.fixture";
import { taskFallbackNote } from "./workflow-endpoint";

const modern = "2026-07-28";
const headers = { Authorization: `Bearer ${token}` };

/** A host that speaks only the current revision: the v2 SDK client pinned to 2026-07-28 (no fallback to `initialize`). */
async function modernHost(name: string) {
  const client = new Client({ name, version: "2.0.0" }, { versionNegotiation: { mode: { pin: modern } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpointUrl), { fetch: routeFetch, requestInit: { headers } }));
  return client;
}

/** The raw request path ext-tasks needs for 2026-07-28 task traffic, over the same route. */
function rawDispatch(request: unknown) {
  const message = request as { method: string; params?: { name?: string; taskId?: string } };
  const name = message.params?.name ?? message.params?.taskId;
  return routeFetch(endpointUrl, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Protocol-Version": modern, "Mcp-Method": message.method, ...(name ? { "Mcp-Name": name } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: crypto.randomUUID(), ...message }),
  }).then((response) => response.json());
}

describe("the workflow MCP endpoint for a 2026-07-28-only host", () => {
  it("negotiates the current revision, lists the tools and answers a method, naming the host from the request", async () => {
    const client = await modernHost("modern-host");
    expect(client.getNegotiatedProtocolVersion()).toBe(modern);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["convertUnits", "listUnits", "answer_a_unit_question"]);
    expect(tools.find((tool) => tool.name === "answer_a_unit_question")?.description).toContain(taskFallbackNote.trim());

    const result = await client.callTool({ name: "convertUnits", arguments: { value: 1, from: "kilometre", to: "metre" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ result: 1000, dimension: "length" });
    const run = (await runsOf("service")).at(-1)!;
    expect(run).toMatchObject({ status: "completed" });
    expect(JSON.parse(run.input)).toMatchObject({ mcpHost: { client: "modern-host", clientVersion: "2.0.0", tool: "convertUnits" } });
    expect(run.toolCalls).toEqual([expect.objectContaining({ caller: "mcp-host:modern-host", isError: false })]);
    await client.close();
  });

  it("runs a Task Start as a task (the tasks extension) for a host that declares it, and traces it under the host's name", async () => {
    const client = await modernHost("modern-task-host");
    const framing = { protocolVersion: modern, clientInfo: { name: "modern-task-host", version: "2.0.0" }, clientCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } };
    const session = createTaskSessionFromClient(client, { endpointId: "unit-desk", rawDispatch, v2RequestFraming: framing });
    try {
      const execution = await session.callTool("answer_a_unit_question", { question: "Convert 26.2 mile to kilometre" });
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as { content: Array<{ type: string; text: string }>; isError?: boolean };
      expect(result.isError).toBeFalsy();
      expect(result.content[0].text).toContain("42.16");
    } finally {
      await session.close();
      await client.close();
    }
    const run = (await runsOf("task")).at(-1)!;
    expect(run).toMatchObject({ status: "completed" });
    expect(run.toolCalls.find((row) => row.server === "ask")).toMatchObject({ caller: "mcp-host:modern-task-host", tool: "answer_a_unit_question", isError: false });
  });

  it("answers a Task Start call from a host without task support by waiting for the sub-flow (the blocking fallback)", async () => {
    const client = await modernHost("modern-plain-host");
    const result = await client.callTool({ name: "answer_a_unit_question", arguments: { question: "Convert 3 mile to kilometre" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("4.82");
    const run = (await runsOf("task")).at(-1)!;
    expect(run.toolCalls.find((row) => row.server === "ask")).toMatchObject({ caller: "mcp-host:modern-plain-host", isError: false });
    await client.close();
  });

  it("answers an unknown tool with a protocol error and an unknown task id with one line", async () => {
    const client = await modernHost("modern-host");
    await expect(client.callTool({ name: "teleport", arguments: {} })).rejects.toThrow(/Unknown tool 'teleport'/);
    const answer = (await rawDispatch({ method: "tasks/get", params: { taskId: "no-such-task", _meta: { "io.modelcontextprotocol/protocolVersion": modern, "io.modelcontextprotocol/clientInfo": { name: "x", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } } })) as { error?: { message: string } };
    expect(answer.error?.message).toMatch(/^Unknown task 'no-such-task'/);
    await client.close();
  });
});
