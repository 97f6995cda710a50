import { randomUUID } from "node:crypto";
import { type CreateTaskOptions, InMemoryTaskStore, type TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { RequestTaskStore } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, Request, RequestId, Result, Task } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { TaskRequest, TaskOutcome } from "../engine";
import type { TaskToolDefinition } from "../graph";
import type { ToolCallRow } from "../trace";
import { readCallerMeta } from "./caller-meta";
import { failedResult, taskResult } from "./task-result";

/** One Task Start offered as a tool. */
export interface OfferedTask {
  taskStartId: string;
  definition: TaskToolDefinition;
}

export interface TaskServerOptions {
  runId: string;
  tasks: readonly OfferedTask[];
  /** Runs a Task Start's sub-flow (the run's `context.runTask`). */
  runTask(request: TaskRequest): Promise<TaskOutcome>;
  /** Writes the trace row of each task call, once the task has ended. */
  recordCall(row: ToolCallRow): void | Promise<void>;
  /** The run's signal: when the run is cancelled, so is every task still running. */
  signal?: AbortSignal;
  /** How often a client should poll a task's status, in ms (in-process: short). */
  pollInterval?: number;
  /** Where the tasks are kept (default: in this process's memory). A shared store (the database) lets other processes read and cancel them. */
  store?: TaskStore;
  /**
   * With a shared store: how often, in ms, a running task's status is read
   * back, so a cancel written by another process stops its sub-flow.
   */
  cancelPollMs?: number;
}

export interface TaskServer {
  server: McpServer;
  /** The registered tool name of each offered task, with its Task Start. */
  tools: ReadonlyArray<{ name: string; taskStartId: string }>;
  /** Cancels what still runs, waits for it to write its row, and stops the store's TTL timers. */
  close(): Promise<void>;
}

/**
 * The run's Task Starts as a real MCP server whose tools are task-required
 * (SDK's experimental tasks, an in-memory task store). A call creates a
 * task and answers with its id at once; the sub-flow runs in the
 * background, its node runs nested under the call's trace row
 * (parentToolCallId = that row's id); its Task End's value becomes the
 * task's result (text, and structuredContent for an object), a failure a
 * failed task whose result says why (isError). The row is written here,
 * on the tool side, exactly once per call, when the task ends.
 */
export function createTaskServer(options: TaskServerOptions): TaskServer {
  const running = new Map<string, AbortController>();
  const jobs = new Set<Promise<void>>();
  // tasks/cancel lands in the store; the task's sub-flow hears it through its controller.
  const store = new CancellingTaskStore(options.store ?? new InMemoryTaskStore(), (taskId) => running.get(taskId)?.abort());
  const cancelAll = () => {
    for (const taskId of running.keys()) void quietly(() => store.updateTaskStatus(taskId, "cancelled", "the run was cancelled"));
  };
  options.signal?.addEventListener("abort", cancelAll, { once: true });
  const server = new McpServer(
    { name: "switchboard-tasks", title: "Switchboard tasks", version: "1.0.0" },
    { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore: store },
  );
  const tools = uniqueNames(options.tasks);
  for (const { name, task } of tools) {
    server.experimental.tasks.registerToolTask(
      name,
      {
        title: task.definition.title,
        description: task.definition.description,
        inputSchema: listedSchema(task.definition.inputSchema),
        execution: { taskSupport: "required" },
        // Starting a sub-flow destroys nothing by itself: each call the sub-flow makes meets its own approval policy.
        annotations: { destructiveHint: false },
      },
      {
        createTask: async (args, extra) => {
          // No TTL, whatever the caller asked: the store lives as long as the run, and a long sub-flow must not expire mid-way.
          const created = await extra.taskStore.createTask({ ttl: null, pollInterval: options.pollInterval ?? 20 });
          const call = { name, task, args: (args ?? {}) as Record<string, unknown>, caller: readCallerMeta(extra._meta), host: server.server.getClientVersion()?.name ?? "unknown" };
          // The task has ended either way (see follow); a row the sink could not take is said in the log, not left unhandled.
          const job = follow(created, call, extra.taskStore)
            .catch((error: unknown) => console.error(`task ${created.taskId} (${name}): its trace row could not be written: ${(error as Error).message}`))
            .finally(() => jobs.delete(job));
          jobs.add(job);
          return { task: created };
        },
        getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
      },
    );
  }

  async function follow(created: Task, call: TaskCall, taskStore: RequestTaskStore): Promise<void> {
    const rowId = call.caller?.rowId ?? randomUUID();
    const started = new Date();
    const controller = new AbortController();
    running.set(created.taskId, controller);
    await quietly(() => taskStore.updateTaskStatus(created.taskId, "working", `running ${call.task.definition.title}`));
    const watch = options.cancelPollMs ? watchForCancel(created.taskId, controller, options.cancelPollMs) : undefined;
    let outcome: TaskOutcome;
    try {
      outcome = await options.runTask({ taskStartId: call.task.taskStartId, args: call.args, parentToolCallId: rowId, signal: controller.signal, taskId: created.taskId });
    } catch (error) {
      outcome = { ok: false, message: `the task failed: ${(error as Error).message}` };
    } finally {
      running.delete(created.taskId);
      clearInterval(watch);
    }
    const cancelled = controller.signal.aborted || (await store.getTask(created.taskId))?.status === "cancelled";
    const error = cancelled ? "the task was cancelled" : outcome.ok ? null : outcome.message;
    try {
      await recordRow(rowId, started, call, outcome, error);
    } finally {
      // Whether or not the row could be written, the task ends: its caller would otherwise poll forever.
      if (!cancelled) {
        // Stored after the row, so whoever reads the result finds the call on the trace. A cancel that won the race makes this throw: nothing to store then.
        await quietly(() => taskStore.storeTaskResult(created.taskId, outcome.ok ? "completed" : "failed", outcome.ok ? taskResult(outcome.result) : failedResult(outcome.message)));
      } else if (options.store) {
        // Stopped here (the session closed, the server shutting down): a shared store must say so too, or other processes would see it working forever.
        await quietly(() => options.store!.updateTaskStatus(created.taskId, "cancelled", "the task was cancelled"));
      }
    }
  }

  /** A cancel another process wrote to the shared store stops the sub-flow here. */
  function watchForCancel(taskId: string, controller: AbortController, everyMs: number): ReturnType<typeof setInterval> {
    let reading = false;
    const timer = setInterval(() => {
      if (reading || controller.signal.aborted) return;
      reading = true;
      store
        .getTask(taskId)
        .then((task) => {
          if (task?.status === "cancelled") controller.abort();
        })
        .catch(() => undefined)
        .finally(() => (reading = false));
    }, everyMs);
    timer.unref?.();
    return timer;
  }

  function recordRow(rowId: string, started: Date, call: TaskCall, outcome: TaskOutcome, error: string | null): void | Promise<void> {
    return options.recordCall({
      id: rowId,
      runId: options.runId,
      nodeRunId: call.caller?.nodeRunId ?? null,
      tool: call.name,
      server: call.task.taskStartId,
      caller: call.caller?.nodeId ?? `mcp-host:${call.host}`,
      arguments: call.args,
      result: error === null && outcome.ok ? outcome.result : null,
      error,
      isError: error !== null,
      tainted: false,
      startedAt: started.toISOString(),
      durationMs: Date.now() - started.getTime(),
      inputTokens: call.caller?.usage?.inputTokens ?? null,
      outputTokens: call.caller?.usage?.outputTokens ?? null,
      ...(call.caller?.stepKey ? { stepKey: call.caller.stepKey } : {}),
    });
  }

  return {
    server,
    tools: tools.map(({ name, task }) => ({ name, taskStartId: task.taskStartId })),
    async close() {
      options.signal?.removeEventListener("abort", cancelAll);
      for (const controller of running.values()) controller.abort();
      await Promise.allSettled([...jobs]);
      store.cleanup();
    },
  };
}

interface TaskCall {
  name: string;
  task: OfferedTask;
  args: Record<string, unknown>;
  caller: ReturnType<typeof readCallerMeta>;
  host: string;
}

/** A task store (in memory, or shared) that says when a task is cancelled, so its sub-flow can stop. */
class CancellingTaskStore implements TaskStore {
  constructor(
    private readonly inner: TaskStore,
    private readonly onCancel: (taskId: string) => void,
  ) {}

  createTask(taskParams: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string): Promise<Task> {
    return this.inner.createTask(taskParams, requestId, request, sessionId);
  }

  getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    return this.inner.getTask(taskId, sessionId);
  }

  storeTaskResult(taskId: string, status: "completed" | "failed", result: Result, sessionId?: string): Promise<void> {
    return this.inner.storeTaskResult(taskId, status, result, sessionId);
  }

  getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    return this.inner.getTaskResult(taskId, sessionId);
  }

  async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string, sessionId?: string): Promise<void> {
    await this.inner.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === "cancelled") this.onCancel(taskId);
  }

  listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return this.inner.listTasks(cursor, sessionId);
  }

  /** Stops the in-memory store's TTL timers; a shared store has none. */
  cleanup(): void {
    if (this.inner instanceof InMemoryTaskStore) this.inner.cleanup();
  }
}

/**
 * The schema the server lists is the Task Start's own JSON Schema, exactly;
 * validation accepts any object, because the sub-flow checks its arguments
 * itself (runTask) and a bad call must still become a task that fails with
 * the reason, and write its one trace row.
 */
function listedSchema(inputSchema: TaskToolDefinition["inputSchema"]) {
  return z.looseObject({}).meta({ ...inputSchema });
}

/** Two Task Starts with the same title would clash as tools: the later ones get a suffix. */
function uniqueNames(tasks: readonly OfferedTask[]): Array<{ name: string; task: OfferedTask }> {
  const taken = new Set<string>();
  return tasks.map((task) => {
    let name = task.definition.name;
    for (let index = 2; taken.has(name); index++) name = `${task.definition.name.slice(0, 60)}_${index}`;
    taken.add(name);
    return { name, task };
  });
}

/** Status writes are best effort: the session may be closing, or a cancel may have ended the task first. */
async function quietly(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch {
    // The task's end is still recorded on the trace; the store just could not take it.
  }
}
