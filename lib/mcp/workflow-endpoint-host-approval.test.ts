import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { database, document, routeFetch, token } from "./workflow-endpoint-route-fixture";

// The route and the app's wiring are server-only (never in a browser bundle); here they run in Node.
vi.mock("server-only", () => ({}));

const workflowId = "unit-desk-asks";
const endpointUrl = `http://127.0.0.1:3000/api/mcp/${workflowId}`;

beforeAll(async () => {
  // The same desk, with every call of the Task's agent asking for approval.
  const asking = { ...document, name: "Unit desk (asks)", nodes: document.nodes.map((node) => (node.id === "task-agent" ? { ...node, approvals: { "*": "ask" } } : node)) };
  await database.client.workflow.create({ data: { id: workflowId, name: asking.name, document: JSON.stringify(asking) } });
});

/** A real SDK host that declares elicitation and answers every question with `answer`, keeping what it was asked. */
async function connectAnsweringHost(answer: ElicitResult) {
  const asked: Array<{ message: string; requestedSchema?: unknown }> = [];
  const client = new Client({ name: "asking-host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params as { message: string; requestedSchema?: unknown });
    return answer;
  });
  const transport = new StreamableHTTPClientTransport(new URL(endpointUrl), { fetch: routeFetch, requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, transport, asked };
}

async function taskRuns() {
  const runs = await database.client.run.findMany({ where: { workflowId }, orderBy: { startedAt: "asc" }, include: { toolCalls: true } });
  return runs.filter((run) => (JSON.parse(run.input) as { mcpHost?: { kind: string } }).mcpHost?.kind === "task");
}

describe("a served workflow's sub-flow asks the outside host to approve a call (MCP elicitation)", () => {
  it("the host's user approves: the call runs, the answer reaches the host, and the decision row names the host", async () => {
    const { client, transport, asked } = await connectAnsweringHost({ action: "accept", content: { decision: "approve" } });
    const result = (await client.callTool({ name: "answer_a_unit_question", arguments: { question: "convert 10 mile to kilometre" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("convertUnits answered");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: expect.stringContaining("converter/convertUnits asks for approval"), requestedSchema: { required: ["decision"] } });
    const [run] = (await taskRuns()).slice(-1);
    expect(run.status).toBe("completed");
    expect(run.toolCalls.find((row) => row.tool === "approval")).toMatchObject({ server: "switchboard", result: JSON.stringify("approved") });
    expect(JSON.parse(run.toolCalls.find((row) => row.tool === "approval")!.arguments)).toMatchObject({ by: "mcp-host:asking-host", decision: "approved" });
    await transport.terminateSession();
    await client.close();
  });

  it("the host's user denies with a reason: the agent receives it as the tool's error, and the call never runs", async () => {
    const { client, transport } = await connectAnsweringHost({ action: "accept", content: { decision: "deny", reason: "not today" } });
    const result = (await client.callTool({ name: "answer_a_unit_question", arguments: { question: "convert 10 mile to kilometre" } })) as CallToolResult;
    expect(JSON.stringify(result.content)).toContain("A person (mcp-host:asking-host) denied this call: not today");
    const [run] = (await taskRuns()).slice(-1);
    expect(run.toolCalls.find((row) => row.tool === "convertUnits")).toMatchObject({ isError: true });
    await transport.terminateSession();
    await client.close();
  });
});
