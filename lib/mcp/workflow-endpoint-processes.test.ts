import { type CallToolResult, CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretHash } from "../security/secret-tokens";
import type { PrismaClient } from "../db/create-client";
import { requestCancel } from "../db/database-run-queue";
import { createTestPostgres, type TestPostgres } from "../db/postgres/test-postgres";
import { openSqlDatabase } from "../db/sql/open-database";
import { balancedHost as balancedWebHost, openProcessesDatabase, startWebProcess, stopWebProcess, until, type WebProcess } from "../../testing/mcp/endpoint-web-process.fixture";
import { waitingDeskDocument } from "./unit-desk-document";

/**
 * Two web processes behind a load balancer serve one MCP host: two real
 * processes (endpoint-process.fixture.ts, each with its own module state
 * and the embedded worker `npm start` runs) on one database, and a host
 * whose requests the test sends to one or the other. On SQLite and, when a
 * server answers, on Postgres. A process killed under a task:
 * workflow-endpoint-kill.test.ts.
 */

const workflowId = "unit-desk";
const olgaToken = "olga-token-0123456789abcdef";
const ritaToken = "rita-token-fedcba9876543210";

const document = waitingDeskDocument;

let postgres: TestPostgres | { skipped: string } | undefined;

beforeAll(async () => {
  postgres = await createTestPostgres();
  if ("skipped" in postgres) console.log(postgres.skipped);
}, 60_000);

afterAll(async () => {
  if (postgres && !("skipped" in postgres)) await postgres.dispose();
});

describe.each([
  ["sqlite", 3432],
  ["postgres", 3434],
] as const)("two web processes serve one MCP host (%s)", (dialect, port) => {
  let database: { close(): Promise<void> } | undefined;
  let client: PrismaClient;
  let a: WebProcess | undefined;
  let b: WebProcess | undefined;
  let skipped = false;
  let databaseUrl = "";

  beforeAll(async () => {
    let url: string;
    const opened = await openProcessesDatabase(dialect, postgres);
    if (!opened) {
      skipped = true;
      return;
    }
    ({ url, client } = opened);
    database = opened;
    await client.workflow.create({ data: { id: workflowId, name: document.name, document: JSON.stringify(document) } });
    for (const [id, role, token] of [
      ["olga", "owner", olgaToken],
      ["rita", "runner", ritaToken],
    ] as const) {
      await client.user.create({ data: { id, email: `${id}@example.test`, role, passwordHash: "not-used-here" } });
      await client.apiToken.create({ data: { id: `${id}-token`, userId: id, name: "host", tokenHash: secretHash(token), prefix: token.slice(0, 6) } });
    }
    databaseUrl = url;
    [a, b] = await Promise.all([startWebProcess(port, url), startWebProcess(port + 1, url)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopWebProcess(a), stopWebProcess(b)]);
    await database?.close();
  });

  /** The load balancer: every request of the host goes to the process `to` names at that moment. */
  const balancedHost = (name: string) => balancedWebHost({ name, first: a!, workflowId, token: olgaToken });

  const rawPost = (web: WebProcess, token: string, sessionId: string, body: unknown) =>
    fetch(`${web.origin}/api/mcp/${workflowId}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": sessionId, "Mcp-Protocol-Version": "2025-11-25" },
      body: JSON.stringify(body),
    });

  it("continues a session on the other process: tools, a task made on A read on B, a cancel on B of a task started on A, another person's token refused, DELETE on A refused on B", async (context) => {
    if (skipped) return context.skip();
    const { mcp, transport, route } = balancedHost("balanced-host");
    await mcp.connect(transport);
    const sessionId = transport.sessionId!;
    expect(await client.mcpEndpointSession.findUnique({ where: { id: sessionId } })).toMatchObject({ workflowId, ownerId: "olga", protocolVersion: "2025-11-25", closedAt: null });
    expect(JSON.parse((await client.mcpEndpointSession.findUniqueOrThrow({ where: { id: sessionId } })).clientInfo)).toEqual({ name: "balanced-host", version: "1.0.0" });

    // B never saw the initialize: it rebuilds the session from its record.
    route.to = b!;
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["convertUnits", "listUnits", "answer_a_unit_question", "wait_a_while"]);
    const converted = (await mcp.callTool({ name: "convertUnits", arguments: { value: 26.2, from: "mile", to: "kilometre" } })) as CallToolResult;
    expect((converted.structuredContent as { result: number }).result).toBeCloseTo(42.165, 2);
    // The host's name came through the rebuilt session: B's run is traced as this host's.
    const serviceRun = await client.run.findFirstOrThrow({ where: { workflowId }, include: { toolCalls: true }, orderBy: { startedAt: "desc" } });
    expect(serviceRun.toolCalls).toEqual([expect.objectContaining({ caller: "mcp-host:balanced-host", tool: "convertUnits" })]);

    // A task created on A, its result read on B (B waits on the stored task until the worker that ran its run stores the result).
    route.to = a!;
    const created = await mcp.request({ method: "tools/call", params: { name: "answer_a_unit_question", arguments: { question: "Convert 26.2 mile to kilometre" }, task: {} } }, CreateTaskResultSchema);
    const taskId = created.task.taskId;
    route.to = b!;
    const result = (await mcp.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("42.16");
    expect(await mcp.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: "completed" });
    const stored = await client.mcpEndpointTask.findUniqueOrThrow({ where: { id: taskId } });
    expect(stored).toMatchObject({ scope: `session:${sessionId}`, status: "completed", runId: expect.any(String) });
    expect(await client.run.findUniqueOrThrow({ where: { id: stored.runId! } })).toMatchObject({ status: "completed" });

    // A task started on A, cancelled from B: its run (whichever process's worker holds it) ends cancelled within 2 s.
    route.to = a!;
    const waiting = await mcp.request({ method: "tools/call", params: { name: "wait_a_while", arguments: { payload: { n: 1 } }, task: {} } }, CreateTaskResultSchema);
    const waitRunId = await until(async () => (await client.mcpEndpointTask.findUnique({ where: { id: waiting.task.taskId } }))?.runId, "the waiting task's run");
    await until(async () => (await client.nodeRun.findFirst({ where: { runId: waitRunId, nodeId: "wait-delay", status: "running" } })) !== null, "the delay to start");
    route.to = b!;
    const listed = await mcp.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => [task.taskId, task.status])).toEqual([
      [taskId, "completed"],
      [waiting.task.taskId, "working"],
    ]);
    const asked = Date.now();
    expect(await mcp.experimental.tasks.cancelTask(waiting.task.taskId)).toMatchObject({ status: "cancelled" });
    const ended = await until(async () => {
      const run = await client.run.findUnique({ where: { id: waitRunId }, include: { toolCalls: true } });
      return run?.status === "cancelled" ? run : undefined;
    }, "the cancelled run to end", 10_000);
    const tookMs = Date.now() - asked;
    console.log(`${dialect}: tasks/cancel on B ended the task's run in ${tookMs} ms`);
    expect(tookMs).toBeLessThan(2_000);
    expect(ended.toolCalls.find((row) => row.server === "wait")).toMatchObject({ caller: "mcp-host:balanced-host", error: "the task was cancelled" });
    expect(await mcp.experimental.tasks.getTask(waiting.task.taskId)).toMatchObject({ status: "cancelled" });

    // Another person's token, with this session's id: refused on either process.
    for (const web of [a!, b!]) {
      const refused = await rawPost(web, ritaToken, sessionId, { jsonrpc: "2.0", id: 9, method: "tools/list" });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { message: expect.stringContaining("another person's token") } });
    }

    // DELETE on A ends it for B too.
    route.to = a!;
    await transport.terminateSession();
    await mcp.close();
    expect((await client.mcpEndpointSession.findUniqueOrThrow({ where: { id: sessionId } })).closedAt).toBeInstanceOf(Date);
    const gone = await rawPost(b!, olgaToken, sessionId, { jsonrpc: "2.0", id: 10, method: "tools/list" });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: -32001, message: expect.stringContaining("Session not found") } });
  }, 120_000);

  it("ends a session on B with DELETE and cancels its task started on A", async (context) => {
    if (skipped) return context.skip();
    const { mcp, transport, route } = balancedHost("deleting-host");
    await mcp.connect(transport);
    const waiting = await mcp.request({ method: "tools/call", params: { name: "wait_a_while", arguments: { payload: { n: 2 } }, task: {} } }, CreateTaskResultSchema);
    const runId = await until(async () => (await client.mcpEndpointTask.findUnique({ where: { id: waiting.task.taskId } }))?.runId, "the task's run");
    await until(async () => (await client.nodeRun.findFirst({ where: { runId, nodeId: "wait-delay", status: "running" } })) !== null, "the delay to start");
    route.to = b!;
    await transport.terminateSession();
    await mcp.close();
    await until(async () => (await client.run.findUnique({ where: { id: runId } }))?.status === "cancelled", "the session's task to be cancelled", 5_000);
    expect(await client.mcpEndpointTask.findUniqueOrThrow({ where: { id: waiting.task.taskId } })).toMatchObject({ status: "cancelled", statusMessage: "the MCP session ended" });
  }, 60_000);

  it("cancels a host's task started on A when a person cancels its run in the app (another process)", async (context) => {
    if (skipped) return context.skip();
    const { mcp, transport } = balancedHost("cancelled-in-app-host");
    await mcp.connect(transport);
    const waiting = await mcp.request({ method: "tools/call", params: { name: "wait_a_while", arguments: { payload: { n: 3 } }, task: {} } }, CreateTaskResultSchema);
    const runId = await until(async () => (await client.mcpEndpointTask.findUnique({ where: { id: waiting.task.taskId } }))?.runId, "the task's run");
    await until(async () => (await client.nodeRun.findFirst({ where: { runId, nodeId: "wait-delay", status: "running" } })) !== null, "the delay to start");
    // The Cancel of /runs/[id] and of `npm run workflow -- cancel`: one call on the database, from this test's process.
    const db = openSqlDatabase(databaseUrl);
    try {
      expect(await requestCancel(db, runId)).toBe("requested");
    } finally {
      await db.close();
    }
    await until(async () => (await client.run.findUnique({ where: { id: runId } }))?.status === "cancelled", "the run to end cancelled", 5_000);
    expect(await mcp.experimental.tasks.getTask(waiting.task.taskId)).toMatchObject({ status: "cancelled", statusMessage: "the run was cancelled" });
    await transport.terminateSession();
    await mcp.close();
  }, 60_000);

  it("reads a 2026-07-28 host's task on the process that did not start it", async (context) => {
    if (skipped) return context.skip();
    const modern = "2026-07-28";
    const meta = { "io.modelcontextprotocol/protocolVersion": modern, "io.modelcontextprotocol/clientInfo": { name: "modern-host", version: "2.0.0" }, "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
    const send = async (web: WebProcess, token: string, method: string, params: Record<string, unknown>) => {
      const name = (params.name ?? params.taskId) as string | undefined;
      const response = await fetch(`${web.origin}/api/mcp/${workflowId}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Protocol-Version": modern, "Mcp-Method": method, ...(name ? { "Mcp-Name": name } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: crypto.randomUUID(), method, params: { ...params, _meta: meta } }),
      });
      return (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
    };
    const created = await send(a!, olgaToken, "tools/call", { name: "answer_a_unit_question", arguments: { question: "Convert 3 mile to kilometre" } });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.result!.taskId as string;
    const done = await until(async () => {
      const answer = await send(b!, olgaToken, "tasks/get", { taskId });
      return answer.result?.status === "completed" ? answer.result : undefined;
    }, "the task to complete, read on B");
    expect(JSON.stringify(done.result)).toContain("4.82");
    // Another person does not see it.
    expect((await send(b!, ritaToken, "tasks/get", { taskId })).error?.message).toMatch(/^Unknown task/);
    // Nor on the process that holds it while it runs: its running tasks are kept under their owner too.
    const waiting = await send(a!, olgaToken, "tools/call", { name: "wait_a_while", arguments: { payload: { n: 4 } } });
    expect(waiting.result).toMatchObject({ resultType: "task", status: "working" });
    const waitingId = waiting.result!.taskId as string;
    expect((await send(a!, ritaToken, "tasks/get", { taskId: waitingId })).error?.message).toMatch(/^Unknown task/);
    expect((await send(a!, ritaToken, "tasks/cancel", { taskId: waitingId })).error?.message).toMatch(/^Unknown task/);
    expect((await send(a!, olgaToken, "tasks/get", { taskId: waitingId })).result).toMatchObject({ status: "working" });
    expect((await send(a!, olgaToken, "tasks/cancel", { taskId: waitingId })).error).toBeUndefined();
  }, 60_000);
});
