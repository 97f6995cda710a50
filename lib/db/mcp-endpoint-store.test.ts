import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "./create-client";
import { sessionTaskScope } from "../mcp/endpoint-session-store";
import { PrismaEndpointSessionStore, PrismaTaskStore, queueGraceMs, settleTasksOfRun } from "./mcp-endpoint-store";
import { createTestPostgres, type TestPostgres } from "./postgres/test-postgres";
import { createTemporaryDatabase, type TemporaryDatabase } from "../../testing/db/temporary-database.fixture";

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

  it("fails a task whose run was never queued (its process died in between) once the grace period has passed", async (context) => {
    if (skip()) return context.skip();
    const scope = `session:${crypto.randomUUID()}`;
    const store = new PrismaTaskStore(client, () => scope);
    const fresh = await store.createTask({ ttl: null }, 1, request);
    const stranded = await store.createTask({ ttl: null }, 1, request);
    await client().mcpEndpointTask.update({ where: { id: stranded.taskId }, data: { createdAt: new Date(Date.now() - queueGraceMs - 1000) } });
    expect(await store.getTask(fresh.taskId)).toMatchObject({ status: "working" });
    expect(await store.getTask(stranded.taskId)).toMatchObject({ status: "failed", statusMessage: expect.stringContaining("stopped before it queued") });
    expect(await store.getTaskResult(stranded.taskId)).toMatchObject({ isError: true });
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

  it("follows each task's queued run: a run that ended gives the task its status and result on the next read, one waiting for a person says so, and a cancel ends a queued run at once and flags a running one", async (context) => {
    if (skip()) return context.skip();
    const scope = `session:${crypto.randomUUID()}`;
    const store = new PrismaTaskStore(client, () => scope);
    const run = async (status: string, extra: Record<string, unknown> = {}) => {
      const id = crypto.randomUUID();
      await client().run.create({ data: { id, document: "{}", input: "{}", status, ...extra } });
      return id;
    };
    const taskOf = async (runId: string) => {
      const task = await store.createTask({ ttl: null }, 1, request);
      await client().mcpEndpointTask.update({ where: { id: task.taskId }, data: { runId } });
      return task.taskId;
    };

    // Nobody settled these (their worker died right after the run's end): the read does.
    const completed = await taskOf(await run("completed", { outputs: JSON.stringify({ result: { km: 42.2 } }) }));
    expect(await store.getTask(completed)).toMatchObject({ status: "completed" });
    expect(await store.getTaskResult(completed)).toEqual({ content: [{ type: "text", text: '{"km":42.2}' }], structuredContent: { km: 42.2 } });
    const failed = await taskOf(await run("failed", { error: "the converter failed" }));
    expect((await store.listTasks()).tasks.find((task) => task.taskId === failed)).toMatchObject({ status: "failed" });
    expect(await store.getTaskResult(failed)).toEqual({ content: [{ type: "text", text: "the converter failed" }], isError: true });
    const waitingRun = await run("needs-attention", { attention: JSON.stringify({ key: "agent#1/t1/c0", message: "converter/convertUnits waits for approval: the policy asks" }) });
    const waiting = await taskOf(waitingRun);
    expect(await store.getTask(waiting)).toMatchObject({ status: "working", statusMessage: "waits for a person in Switchboard: converter/convertUnits waits for approval: the policy asks" });
    const runningRun = await run("running");
    const running = await taskOf(runningRun);
    await settleTasksOfRun(client(), runningRun);
    expect(await store.getTask(running)).toMatchObject({ status: "working" });

    // tasks/cancel: a run waiting for a person (or queued) ends cancelled at once; a running one is asked to stop (its worker sees it).
    await store.updateTaskStatus(waiting, "cancelled", "the host cancelled it");
    expect(await client().run.findUniqueOrThrow({ where: { id: waitingRun } })).toMatchObject({ status: "cancelled", error: "the run was cancelled", attention: null, endedAt: expect.any(Date) });
    await store.updateTaskStatus(running, "cancelled", "the host cancelled it");
    expect(await client().run.findUniqueOrThrow({ where: { id: runningRun } })).toMatchObject({ status: "running", cancelRequestedAt: expect.any(Date) });
    expect(await store.getTask(running)).toMatchObject({ status: "cancelled", statusMessage: "the host cancelled it" });
  });
});
