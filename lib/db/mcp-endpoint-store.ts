import { randomBytes } from "node:crypto";
import type { CreateTaskOptions, TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import { type EndpointSessionStore, failedResult, sessionTaskScope, type StoredEndpointSession, taskResult } from "../mcp";
import type { PrismaClient } from "./create-client";
import { fromJsonText, toJsonText } from "./json-text";

/**
 * The outside MCP endpoint's state in the database (app/api/mcp/<workflow id>):
 * its 2025-era sessions (McpEndpointSession) and the tasks hosts start on
 * its Task Starts (McpEndpointTask), so that any web process behind a load
 * balancer answers any request. Works on SQLite and Postgres alike (Prisma).
 */

const terminal = ["completed", "failed", "cancelled"];

/** The endpoint's sessions in the database. */
export class PrismaEndpointSessionStore implements EndpointSessionStore {
  constructor(private readonly client: () => PrismaClient) {}

  async create(session: Omit<StoredEndpointSession, "createdAt" | "lastSeenAt" | "closedAt">): Promise<void> {
    await this.client().mcpEndpointSession.create({
      data: { ...session, clientInfo: toJsonText(session.clientInfo), capabilities: toJsonText(session.capabilities) },
    });
  }

  async find(id: string): Promise<StoredEndpointSession | null> {
    const row = await this.client().mcpEndpointSession.findUnique({ where: { id } });
    if (!row) return null;
    return { ...row, clientInfo: fromJsonText(row.clientInfo) as StoredEndpointSession["clientInfo"], capabilities: (fromJsonText(row.capabilities) ?? {}) as Record<string, unknown> };
  }

  async touch(id: string, now: Date = new Date()): Promise<void> {
    await this.client().mcpEndpointSession.updateMany({ where: { id, closedAt: null }, data: { lastSeenAt: now } });
  }

  async close(id: string, now: Date = new Date()): Promise<void> {
    await this.client().mcpEndpointSession.updateMany({ where: { id, closedAt: null }, data: { closedAt: now } });
    await cancelWorkingTasks(this.client(), { scope: sessionTaskScope(id) }, "the MCP session ended", now);
  }

  async hasWorkingTask(id: string): Promise<boolean> {
    return (await this.client().mcpEndpointTask.count({ where: { scope: sessionTaskScope(id), status: { notIn: terminal } } })) > 0;
  }

  async sweep(cutoff: Date, forgetBefore: Date): Promise<string[]> {
    const client = this.client();
    const idle = await client.mcpEndpointSession.findMany({ where: { closedAt: null, lastSeenAt: { lt: cutoff } }, select: { id: true } });
    const closed: string[] = [];
    for (const { id } of idle) {
      if (await this.hasWorkingTask(id)) continue;
      const ended = await client.mcpEndpointSession.updateMany({ where: { id, closedAt: null, lastSeenAt: { lt: cutoff } }, data: { closedAt: new Date() } });
      if (ended.count > 0) closed.push(id);
    }
    const gone = await client.mcpEndpointSession.findMany({ where: { closedAt: { lt: forgetBefore } }, select: { id: true } });
    if (gone.length) {
      await client.mcpEndpointTask.deleteMany({ where: { scope: { in: gone.map(({ id }) => sessionTaskScope(id)) } } });
      await client.mcpEndpointSession.deleteMany({ where: { id: { in: gone.map(({ id }) => id) } } });
    }
    await client.mcpEndpointTask.deleteMany({ where: { status: { in: terminal }, lastUpdatedAt: { lt: forgetBefore }, scope: { startsWith: "owner:" } } });
    await failUnqueuedTasks(client, {}, new Date());
    return closed;
  }
}

/** How long a task may wait for its run to be queued: the process that took the call queues it at once, so past this it died in between. */
export const queueGraceMs = 60_000;

/**
 * Fails the working tasks whose run was never queued (the web process that
 * took the call was killed between storing the task and queuing its run),
 * once the grace period has passed: the host learns the task failed instead
 * of polling a task nothing will ever run. Returns how many it failed.
 */
export async function failUnqueuedTasks(client: PrismaClient, where: { id?: string }, now: Date): Promise<number> {
  const reason = "the process that took the call stopped before it queued the task's run; call the tool again";
  const failed = await client.mcpEndpointTask.updateMany({
    where: { ...where, runId: null, status: { notIn: terminal }, createdAt: { lt: new Date(now.getTime() - queueGraceMs) } },
    data: { status: "failed", statusMessage: reason, result: toJsonText(failedResult(reason)), lastUpdatedAt: now },
  });
  return failed.count;
}

/**
 * Marks the working tasks that match cancelled and cancels their runs, as
 * Cancel on /runs/[id] does: a run still queued (no worker took it yet) or
 * waiting for a person ends cancelled at once; a running one is flagged and
 * its worker stops it on its next heartbeat.
 */
async function cancelWorkingTasks(client: PrismaClient, where: { scope: string } | { id: string }, message: string, now: Date): Promise<number> {
  const working = await client.mcpEndpointTask.findMany({ where: { ...where, status: { notIn: terminal } }, select: { id: true, runId: true } });
  let cancelled = 0;
  for (const task of working) {
    // One transaction: a process killed in between never leaves a task cancelled whose run goes on.
    const [changed] = await client.$transaction([
      client.mcpEndpointTask.updateMany({ where: { id: task.id, status: { notIn: terminal } }, data: { status: "cancelled", statusMessage: message, lastUpdatedAt: now } }),
      ...(task.runId
        ? [
            client.run.updateMany({ where: { id: task.runId, status: { in: ["queued", "needs-attention"] } }, data: { status: "cancelled", error: "the run was cancelled", endedAt: now, attention: null } }),
            client.run.updateMany({ where: { id: task.runId, status: "running" }, data: { cancelRequestedAt: now } }),
          ]
        : []),
    ]);
    cancelled += changed.count;
  }
  return cancelled;
}

/**
 * Brings the tasks of one run to the run's end: a task whose run completed
 * reads completed with the Task End's value as its result, a failed run a
 * failed task whose result says why, a cancelled run a cancelled task. The
 * worker that ran the run calls it once the run has ended; readers call it
 * too (PrismaTaskStore), so a task never stays working after its run ended,
 * whatever process died in between. A run waiting for a person leaves the
 * task working and says so in its status message; one still running
 * changes nothing.
 */
export async function settleTasksOfRun(client: PrismaClient, runId: string, now: Date = new Date()): Promise<void> {
  const run = await client.run.findUnique({ where: { id: runId }, select: { status: true, outputs: true, error: true, attention: true } });
  if (!run) return;
  const open = { runId, status: { notIn: terminal } };
  if (run.status === "needs-attention") {
    // Still working for the host, but it should know why nothing moves: a person decides in the app.
    const waits = `waits for a person in Switchboard: ${(fromJsonText(run.attention) as { message?: string } | null)?.message ?? run.error ?? "a call needs attention"}`;
    await client.mcpEndpointTask.updateMany({ where: { ...open, OR: [{ statusMessage: null }, { statusMessage: { not: waits } }] }, data: { statusMessage: waits, lastUpdatedAt: now } });
    return;
  }
  if (!terminal.includes(run.status)) return;
  if (run.status === "cancelled") {
    await client.mcpEndpointTask.updateMany({ where: open, data: { status: "cancelled", statusMessage: "the run was cancelled", lastUpdatedAt: now } });
    return;
  }
  const outputs = (fromJsonText(run.outputs) ?? {}) as { result?: unknown };
  const result = run.status === "completed" ? taskResult(outputs.result) : failedResult(run.error ?? "the task's run failed");
  await client.mcpEndpointTask.updateMany({ where: open, data: { status: run.status, result: toJsonText(result), lastUpdatedAt: now } });
}

/**
 * The SDK's TaskStore on the database, for one scope (a 2025-era session, or
 * one person's tasks on one workflow in the 2026-07-28 era): the task server
 * of any process finds the tasks another created, reads their status and
 * result, and cancels them. The SDK's own `sessionId` argument is ignored:
 * the endpoint reaches its task server over an in-process connection, and
 * the scope says whose tasks these are. A task's sub-flow is a queued Run
 * (`runId`) that a worker runs; a read of a task still working brings it to
 * its run's end first (settleTasksOfRun). A cancel cancels the run too
 * (see cancelWorkingTasks).
 */
export class PrismaTaskStore implements TaskStore {
  constructor(
    private readonly client: () => PrismaClient,
    private readonly scope: () => string,
  ) {}

  async createTask(taskParams: CreateTaskOptions, _requestId: RequestId, _request: Request): Promise<Task> {
    const now = new Date();
    const row = await this.client().mcpEndpointTask.create({
      data: { id: randomBytes(16).toString("hex"), scope: this.scope(), status: "working", ttlMs: taskParams.ttl ?? null, pollIntervalMs: taskParams.pollInterval ?? 1000, createdAt: now, lastUpdatedAt: now },
    });
    return taskOf(row);
  }

  async getTask(taskId: string): Promise<Task | null> {
    const row = await this.settledRow(taskId);
    return row ? taskOf(row) : null;
  }

  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result): Promise<void> {
    const changed = await this.client().mcpEndpointTask.updateMany({
      where: { id: taskId, scope: this.scope(), status: { notIn: terminal } },
      data: { status, result: toJsonText(result), lastUpdatedAt: new Date() },
    });
    if (changed.count === 0) throw new Error(`Cannot store a result for task ${taskId}: it is unknown here or has already ended.`);
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const row = await this.settledRow(taskId);
    if (!row) throw new Error(`Task with ID ${taskId} not found`);
    if (row.result === null) throw new Error(`Task ${taskId} has no result stored`);
    return fromJsonText(row.result) as Result;
  }

  async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string): Promise<void> {
    if (status === "cancelled") {
      const row = await this.row(taskId);
      if (!row) throw new Error(`Task with ID ${taskId} not found`);
      if ((await cancelWorkingTasks(this.client(), { id: taskId }, statusMessage ?? "the task was cancelled", new Date())) === 0) {
        throw new Error(`Cannot cancel task ${taskId}: it has already ended.`);
      }
      return;
    }
    const changed = await this.client().mcpEndpointTask.updateMany({
      where: { id: taskId, scope: this.scope(), status: { notIn: terminal } },
      data: { status, ...(statusMessage ? { statusMessage } : {}), lastUpdatedAt: new Date() },
    });
    if (changed.count === 0) throw new Error(`Cannot update task ${taskId}: it is unknown here or has already ended.`);
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const pageSize = 50;
    const offset = cursor === undefined ? 0 : /^\d{1,9}$/.test(cursor) ? Number(cursor) : Number.NaN;
    if (Number.isNaN(offset)) throw new Error(`Invalid cursor: ${cursor}`);
    const page = () => this.client().mcpEndpointTask.findMany({ where: { scope: this.scope() }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], skip: offset, take: pageSize + 1 });
    let rows = await page();
    const running = rows.filter((row) => row.runId && !terminal.includes(row.status));
    if (running.length) {
      for (const row of running) await settleTasksOfRun(this.client(), row.runId!);
      rows = await page();
    }
    return { tasks: rows.slice(0, pageSize).map(taskOf), ...(rows.length > pageSize ? { nextCursor: String(offset + pageSize) } : {}) };
  }

  /** Ties the task to the Run of its sub-flow, so a cancel reaches the run; says whether the task was cancelled meanwhile. */
  async linkRun(taskId: string, runId: string): Promise<{ cancelled: boolean }> {
    await this.client().mcpEndpointTask.updateMany({ where: { id: taskId, scope: this.scope() }, data: { runId } });
    return { cancelled: (await this.row(taskId))?.status === "cancelled" };
  }

  private row(taskId: string) {
    return this.client().mcpEndpointTask.findFirst({ where: { id: taskId, scope: this.scope() } });
  }

  /** The task's row, brought to its run's end first when the run has ended (see settleTasksOfRun). */
  private async settledRow(taskId: string) {
    const row = await this.row(taskId);
    if (!row || terminal.includes(row.status)) return row;
    if (!row.runId) {
      if ((await failUnqueuedTasks(this.client(), { id: taskId }, new Date())) === 0) return row;
    } else await settleTasksOfRun(this.client(), row.runId);
    return this.row(taskId);
  }
}

function taskOf(row: { id: string; status: string; statusMessage: string | null; ttlMs: number | null; pollIntervalMs: number; createdAt: Date; lastUpdatedAt: Date }): Task {
  return {
    taskId: row.id,
    status: row.status as Task["status"],
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    ttl: row.ttlMs,
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
    pollInterval: row.pollIntervalMs,
  };
}
