import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "./create-client";
import { PrismaEndpointSessionStore, PrismaTaskStore, sessionTaskScope } from "./mcp-endpoint-store";
import { createTestPostgres, type TestPostgres } from "./postgres/test-postgres";
import { createTemporaryDatabase, type TemporaryDatabase } from "./temporary-database";

let sqlite: TemporaryDatabase;
let postgres: TestPostgres | { skipped: string };
let postgresClient: PrismaClient | undefined;

beforeAll(async () => {
  sqlite = await createTemporaryDatabase();
  postgres = await createTestPostgres();
  if ("skipped" in postgres) console.log(postgres.skipped);
  else postgresClient = createPrismaClient(postgres.url);
}, 60_000);

afterAll(async () => {
  await postgresClient?.$disconnect();
  await sqlite?.dispose();
  if (postgres && !("skipped" in postgres)) await postgres.dispose();
});

const request = { method: "tools/call", params: {} };

describe.each(["sqlite", "postgres"] as const)("the MCP endpoint's stored sessions and tasks (%s)", (dialect) => {
  const client = () => (dialect === "sqlite" ? sqlite.client : postgresClient!);
  const skip = () => dialect === "postgres" && !postgresClient;

  it("keeps a task per scope: another store on the same scope reads it, another scope does not; results are stored once", async (context) => {
    if (skip()) return context.skip();
    const scope = `session:${crypto.randomUUID()}`;
    const mine = new PrismaTaskStore(client, () => scope);
    const created = await mine.createTask({ ttl: null, pollInterval: 300 }, 1, request);
    expect(created).toMatchObject({ status: "working", ttl: null, pollInterval: 300 });
    // A second process: its own store object, nothing shared but the database.
    const elsewhere = new PrismaTaskStore(client, () => scope);
    expect(await elsewhere.getTask(created.taskId)).toEqual(created);
    expect(await new PrismaTaskStore(client, () => "session:someone-else").getTask(created.taskId)).toBeNull();
    await mine.updateTaskStatus(created.taskId, "working", "running it");
    await mine.storeTaskResult(created.taskId, "completed", { content: [{ type: "text", text: "done" }] });
    expect(await elsewhere.getTaskResult(created.taskId)).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(await elsewhere.getTask(created.taskId)).toMatchObject({ status: "completed", statusMessage: "running it" });
    await expect(mine.storeTaskResult(created.taskId, "failed", { content: [] })).rejects.toThrow(/already ended/);
    await expect(elsewhere.updateTaskStatus(created.taskId, "cancelled")).rejects.toThrow(/already ended/);
  });

  it("cancels a task and asks its run to stop; lists a scope's tasks in pages", async (context) => {
    if (skip()) return context.skip();
    const scope = `session:${crypto.randomUUID()}`;
    const store = new PrismaTaskStore(client, () => scope);
    const runId = crypto.randomUUID();
    await client().run.create({ data: { id: runId, document: "{}", status: "running" } });
    const task = await store.createTask({ pollInterval: 100 }, 1, request);
    expect(await store.linkRun(task.taskId, runId)).toEqual({ cancelled: false });
    await store.updateTaskStatus(task.taskId, "cancelled", "Client cancelled task execution.");
    expect(await store.getTask(task.taskId)).toMatchObject({ status: "cancelled", statusMessage: "Client cancelled task execution." });
    expect((await client().run.findUniqueOrThrow({ where: { id: runId } })).cancelRequestedAt).toBeInstanceOf(Date);
    expect(await store.linkRun(task.taskId, runId)).toEqual({ cancelled: true });
    await expect(store.storeTaskResult(task.taskId, "completed", { content: [] })).rejects.toThrow(/already ended/);

    for (let index = 0; index < 50; index++) await store.createTask({}, index, request);
    const first = await store.listTasks();
    expect(first.tasks).toHaveLength(50);
    expect(first.tasks[0].taskId).toBe(task.taskId);
    expect(first.nextCursor).toBe("50");
    const second = await store.listTasks(first.nextCursor);
    expect(second.tasks).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    await expect(store.listTasks("bogus")).rejects.toThrow("Invalid cursor: bogus");
  });

  it("closes a session with its working tasks, sweeps idle ones, and forgets closed ones with their tasks", async (context) => {
    if (skip()) return context.skip();
    const sessions = new PrismaEndpointSessionStore(client);
    const base = { workflowId: "desk", ownerId: "olga", protocolVersion: "2025-11-25", clientInfo: { name: "host", version: "1" }, capabilities: { elicitation: {} } };
    const [busy, idle, deleted] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const id of [busy, idle, deleted]) await sessions.create({ id, ...base });
    expect(await sessions.find(idle)).toMatchObject({ ...base, id: idle, closedAt: null });
    const working = await new PrismaTaskStore(client, () => sessionTaskScope(busy)).createTask({}, 1, request);
    const deletedTask = await new PrismaTaskStore(client, () => sessionTaskScope(deleted)).createTask({}, 1, request);
    expect(await sessions.hasWorkingTask(busy)).toBe(true);

    await sessions.close(deleted);
    expect((await sessions.find(deleted))?.closedAt).toBeInstanceOf(Date);
    expect(await client().mcpEndpointTask.findUniqueOrThrow({ where: { id: deletedTask.taskId } })).toMatchObject({ status: "cancelled", statusMessage: "the MCP session ended" });

    const later = new Date(Date.now() + 60_000);
    const closed = await sessions.sweep(later, new Date(0));
    expect(closed).toContain(idle);
    expect(closed).not.toContain(busy);
    expect((await sessions.find(busy))?.closedAt).toBeNull();
    expect((await client().mcpEndpointTask.findUniqueOrThrow({ where: { id: working.taskId } })).status).toBe("working");

    // A day on, the closed sessions' rows and tasks are deleted.
    await sessions.sweep(later, later);
    expect(await sessions.find(deleted)).toBeNull();
    expect(await sessions.find(idle)).toBeNull();
    expect(await client().mcpEndpointTask.findUnique({ where: { id: deletedTask.taskId } })).toBeNull();
    expect(await sessions.find(busy)).not.toBeNull();
  });
});
