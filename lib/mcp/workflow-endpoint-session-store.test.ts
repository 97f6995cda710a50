import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PrismaEndpointSessionStore } from "../db/mcp-endpoint-store";
import { database, endpointUrl, workflowId } from "../../testing/mcp/workflow-endpoint-route.fixture";
import { waitingDeskDocument } from "./unit-desk-document";
import { WorkflowEndpointSessions } from "./workflow-endpoint-sessions";
import { openWorkflowEndpoint, sessionIdleMs } from "../../app/api/mcp/endpoint-sessions";

const opened: WorkflowEndpointSessions[] = [];

/** One web process's sessions (its own cache), on the test's database. */
function processSessions(idleMs = 60_000) {
  const sessions = new WorkflowEndpointSessions({ store: new PrismaEndpointSessionStore(() => database.client), idleMs });
  opened.push(sessions);
  return sessions;
}

const waitingDesk = "waiting-desk";
beforeAll(async () => {
  await database.client.workflow.create({ data: { id: waitingDesk, name: waitingDeskDocument.name, document: JSON.stringify(waitingDeskDocument) } });
});

/** A host whose requests go to `route.to`, as the person `route.owner`. */
function host(first: WorkflowEndpointSessions, owner = "olga", workflow = workflowId) {
  const route = { to: first, owner };
  const fetch = async (input: string | URL | Request, init?: RequestInit) =>
    route.to.handle(new Request(input, init), { workflowId: workflow, ownerId: route.owner, open: (named, scope) => openWorkflowEndpoint(workflow, named, scope) });
  const client = new Client({ name: "idle-host", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(endpointUrl), { fetch });
  return { client, transport, route };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sessions) => sessions.closeAll()));
});

describe("stored MCP sessions (two caches on one database)", () => {
  it("continues on a second cache, refuses another owner, and is refused everywhere once idle past the limit", async () => {
    const a = processSessions();
    const b = processSessions(1_000);
    const { client, transport, route } = host(a);
    await client.connect(transport);
    const id = transport.sessionId!;
    route.to = b;
    expect((await client.listTools()).tools.length).toBe(3);
    expect(b.size).toBe(1);

    route.owner = "rita";
    await expect(client.listTools()).rejects.toThrow(/another person's token/);
    route.owner = "olga";

    // Last used two seconds ago: past B's idle limit of one second, with no task working.
    await database.client.mcpEndpointSession.update({ where: { id }, data: { lastSeenAt: new Date(Date.now() - 2_000) } });
    await expect(client.listTools()).rejects.toThrow(/Session not found/);
    expect((await database.client.mcpEndpointSession.findUniqueOrThrow({ where: { id } })).closedAt).toBeInstanceOf(Date);
    expect(b.size).toBe(0);
    // A, which cached it first, refuses it too: the record is the truth.
    route.to = a;
    await expect(client.listTools()).rejects.toThrow(/Session not found/);
    expect(a.size).toBe(0);
    await client.close();
  });

  it("closes idle sessions in the sweep of any process and drops the cached copies", async () => {
    const a = processSessions(1_000);
    const { client, transport } = host(a);
    await client.connect(transport);
    const id = transport.sessionId!;
    expect(a.size).toBe(1);
    await a.sweep();
    expect((await database.client.mcpEndpointSession.findUniqueOrThrow({ where: { id } })).closedAt).toBeNull();
    await a.sweep(Date.now() + 5_000);
    expect((await database.client.mcpEndpointSession.findUniqueOrThrow({ where: { id } })).closedAt).toBeInstanceOf(Date);
    expect(a.size).toBe(0);
    await client.close();
  });

  it("keeps a session with a task working past the idle limit, and a process shutting down leaves its task to the worker that runs its run", async () => {
    const a = processSessions(1_000);
    const { client, transport } = host(a, "olga", waitingDesk);
    await client.connect(transport);
    const id = transport.sessionId!;
    const { task } = await client.request({ method: "tools/call", params: { name: "wait_a_while", arguments: { payload: { n: 1 } }, task: {} } }, CreateTaskResultSchema);
    await a.sweep(Date.now() + 5_000);
    expect((await database.client.mcpEndpointSession.findUniqueOrThrow({ where: { id } })).closedAt).toBeNull();
    // The process stops (closeAll): the sub-flow is a queued run a worker holds, so the task goes on working.
    await a.closeAll();
    const stored = await database.client.mcpEndpointTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(stored).toMatchObject({ status: "working", runId: expect.any(String) });
    expect((await database.client.run.findUniqueOrThrow({ where: { id: stored.runId! } })).status).toMatch(/^(queued|running)$/);
    // The session itself lives on: another process continues it, and reads the task working.
    const b = processSessions();
    const ask = (rpcId: number, method: string) =>
      b.handle(
        new Request(endpointUrl, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-11-25" }, body: JSON.stringify({ jsonrpc: "2.0", id: rpcId, method, params: { taskId: task.taskId } }) }),
        { workflowId: waitingDesk, ownerId: "olga", open: (named, scope) => openWorkflowEndpoint(waitingDesk, named, scope) },
      );
    expect(await (await ask(5, "tasks/get")).json()).toMatchObject({ result: { taskId: task.taskId, status: "working" } });
    expect(await (await ask(6, "tasks/cancel")).json()).toMatchObject({ result: { taskId: task.taskId, status: "cancelled" } });
    await b.closeAll();
    await client.close();
  });

  it("reads the idle limit from SWITCHBOARD_MCP_SESSION_IDLE_MINUTES, saying so when it is not a number", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(sessionIdleMs(undefined)).toBe(30 * 60_000);
    expect(sessionIdleMs("5")).toBe(5 * 60_000);
    expect(sessionIdleMs("soon")).toBe(30 * 60_000);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('SWITCHBOARD_MCP_SESSION_IDLE_MINUTES must be a number of minutes above 0 (got "soon")'));
    warn.mockRestore();
  });
});
