import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { database, endpointUrl, routeFetch, runsOf, token, workflowId } from "../../testing/mcp/workflow-endpoint-route.fixture";
import { unitDeskDocument as document } from "./unit-desk-document";

const modern = "2026-07-28";

/** The Task Start's agent reaches the unit converter through an edge that asks a person before every call. */
beforeAll(async () => {
  const asking = { ...document, edges: document.edges.map((edge) => (edge.id === "e6" ? { ...edge, approval: "ask" as const } : edge)) };
  await database.client.workflow.update({ where: { id: workflowId }, data: { document: JSON.stringify(asking) } });
});

type Answer = { action: "accept"; content: Record<string, string> } | { action: "decline" } | { action: "cancel" };

/**
 * A host of the current revision only (the real v2 client pinned to
 * 2026-07-28) that declares elicitation and answers every question with
 * `answer`, recording what it was asked. The SDK fulfils each
 * `input_required` result through this handler and sends the call again.
 */
async function approvingHost(name: string, answer: Answer) {
  const asked: Array<{ message: string; requestedSchema: unknown }> = [];
  /** Every tools/call on the wire: what the host sent and what it got back. */
  const wire: Array<{ sent: Record<string, unknown>; got: string }> = [];
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await routeFetch(input, init);
    const sent = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string; params?: Record<string, unknown> }) : {};
    if (sent.method === "tools/call") wire.push({ sent: sent.params ?? {}, got: await response.clone().text() });
    return response;
  };
  const client = new Client({ name, version: "2.0.0" }, { versionNegotiation: { mode: { pin: modern } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params as { message: string; requestedSchema?: unknown };
    asked.push({ message: params.message, requestedSchema: params.requestedSchema });
    return answer;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpointUrl), { fetch: recordingFetch, requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return { client, asked, wire };
}

async function lastTaskRun() {
  const run = (await runsOf("task")).at(-1)!;
  const approval = run.toolCalls.find((row) => row.server === "switchboard" && row.tool === "approval");
  return { run, approval: approval ? { ...approval, arguments: JSON.parse(approval.arguments) as Record<string, unknown> } : undefined };
}

describe("a 2026-07-28 host that declared elicitation decides the sub-flow's approvals (input_required)", () => {
  it("approves: the question comes as input_required, the re-sent call carries the answer, the call runs once and the decision is journalled naming the host", async () => {
    const { client, asked, wire } = await approvingHost("modern-approver", { action: "accept", content: { decision: "approve" } });
    const result = await client.callTool({ name: "answer_a_unit_question", arguments: { question: "Convert 3 mile to kilometre" } });
    expect(result.isError).toBeFalsy();
    // Two tools/call requests: the first answered input_required (with a signed requestState), the second re-sent with the answer.
    expect(wire).toHaveLength(2);
    expect(wire[0].got).toContain('"resultType":"input_required"');
    expect(wire[0].got).toContain('"method":"elicitation/create"');
    expect(wire[1].sent).toMatchObject({ name: "answer_a_unit_question", requestState: expect.stringMatching(/^v1\./), inputResponses: { "switchboard-question-1": { action: "accept", content: { decision: "approve" } } } });
    expect(JSON.stringify(result.content)).toContain("4.82");
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toMatch(/^converter\/convertUnits asks for approval/);
    expect(asked[0].requestedSchema).toMatchObject({ properties: { decision: { type: "string" } }, required: ["decision"] });
    const { run, approval } = await lastTaskRun();
    expect(run.status).toBe("completed");
    expect(approval?.arguments).toMatchObject({ call: "converter/convertUnits", decision: "approved", by: "mcp-host:modern-approver (SWITCHBOARD_MCP_TOKEN)", policy: { decide: "ask", setAt: "edge e6" } });
    expect(run.toolCalls.filter((row) => row.tool === "convertUnits")).toEqual([expect.objectContaining({ isError: false })]);
    await client.close();
  });

  it("declines: the denial reaches the sub-flow's agent as the tool's error, the converter never runs, and the decision names the host", async () => {
    const { client, asked } = await approvingHost("modern-decliner", { action: "decline" });
    const result = await client.callTool({ name: "answer_a_unit_question", arguments: { question: "Convert 3 mile to kilometre" } });
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(result.content)).not.toContain("4.82");
    const { run, approval } = await lastTaskRun();
    expect(run.status).toBe("completed");
    expect(approval?.arguments).toMatchObject({ decision: "denied", by: "mcp-host:modern-decliner (SWITCHBOARD_MCP_TOKEN)", reason: "the host's user declined to approve it" });
    const converterRows = run.toolCalls.filter((row) => row.tool === "convertUnits");
    expect(converterRows).toEqual([expect.objectContaining({ isError: true, error: expect.stringContaining("declined to approve it") })]);
    await client.close();
  });

  it("a host without elicitation is not asked: the call waits for a person in the app, as before", async () => {
    const client = new Client({ name: "modern-plain-host", version: "2.0.0" }, { versionNegotiation: { mode: { pin: modern } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpointUrl), { fetch: routeFetch, requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const result = await client.callTool({ name: "answer_a_unit_question", arguments: { question: "Convert 3 mile to kilometre" } });
    expect(result.isError).toBe(true);
    const { run, approval } = await lastTaskRun();
    expect(run.status).toBe("needs-attention");
    expect(approval).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain("waits for approval");
    await client.close();
  });

  it("a forged or foreign requestState is refused in one line and decides nothing", async () => {
    const before = (await runsOf("task")).length;
    const response = await routeFetch(endpointUrl, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Protocol-Version": modern, "Mcp-Method": "tools/call", "Mcp-Name": "answer_a_unit_question" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "answer_a_unit_question",
          arguments: { question: "Convert 3 mile to kilometre" },
          inputResponses: { "switchboard-question-1": { action: "accept", content: { decision: "approve" } } },
          requestState: "v1.forged.state",
          _meta: { "io.modelcontextprotocol/protocolVersion": modern, "io.modelcontextprotocol/clientInfo": { name: "forger", version: "1" }, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
        },
      }),
    });
    const answer = (await response.json()) as { result?: { isError?: boolean; content: Array<{ text: string }> } };
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.content[0].text).toMatch(/^This answer cannot be used: its requestState is not one this server signed/);
    expect((await runsOf("task")).length).toBe(before);
  });
});

describe("a 2026-07-28 host that runs the Task Start as a task (the tasks extension) and declared elicitation", () => {
  /** The raw request path ext-tasks needs for 2026-07-28 task traffic, over the same route. */
  function rawDispatch(request: unknown) {
    const message = request as { method: string; params?: { name?: string; taskId?: string } };
    const name = message.params?.name ?? message.params?.taskId;
    return routeFetch(endpointUrl, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Protocol-Version": modern, "Mcp-Method": message.method, ...(name ? { "Mcp-Name": name } : {}) },
      body: JSON.stringify({ jsonrpc: "2.0", id: crypto.randomUUID(), ...message }),
    }).then((response) => response.json());
  }

  it("sees the approval as the task's input_required status, answers with tasks/update, and the task completes with the decision journalled", async () => {
    const { createTaskSessionFromClient, resultFromTaskOutcome } = await import("@modelcontextprotocol/ext-tasks/client");
    const { client } = await approvingHost("modern-task-approver", { action: "accept", content: { decision: "approve" } });
    const asked: unknown[] = [];
    const framing = { protocolVersion: modern, clientInfo: { name: "modern-task-approver", version: "2.0.0" }, clientCapabilities: { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } };
    const session = createTaskSessionFromClient(client, {
      endpointId: "unit-desk",
      rawDispatch,
      v2RequestFraming: framing,
      onInputRequest: (async (request: { kind: string; params?: unknown }) => {
        asked.push(request);
        return { action: "accept", content: { decision: "approve" } };
      }) as never,
    });
    try {
      const execution = await session.callTool("answer_a_unit_question", { question: "Convert 3 mile to kilometre" });
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as { content: Array<{ text: string }>; isError?: boolean };
      expect(result.isError).toBeFalsy();
      expect(result.content[0].text).toContain("4.82");
    } finally {
      await session.close();
      await client.close();
    }
    expect(asked).toEqual([expect.objectContaining({ kind: "elicitation", params: expect.objectContaining({ message: expect.stringMatching(/^converter\/convertUnits asks for approval/) }) })]);
    const { run, approval } = await lastTaskRun();
    expect(run.status).toBe("completed");
    expect(approval?.arguments).toMatchObject({ decision: "approved", by: "mcp-host:modern-task-approver (SWITCHBOARD_MCP_TOKEN)" });
  });
});
