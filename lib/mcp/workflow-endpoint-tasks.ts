import { randomUUID } from "node:crypto";
import type { QuestionAsker } from "../run-model/tool-question";
import { type CallToolRequest, type CallToolResult, CallToolResultSchema, type CreateTaskResult, CreateTaskResultSchema, type Task } from "@modelcontextprotocol/sdk/types.js";
import type { TaskOutcome, TaskRequest } from "../engine";
import type { ToolCallRow } from "../trace";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";
import { failedResult } from "./task-result";
import { createTaskServer, type TaskServer } from "./task-server";
import type { EndpointTaskStore, McpHost, OutsideCall, OutsideTaskRun, WorkflowEndpointOptions } from "./workflow-endpoint-types";

export type { EndpointTaskStore };
import { forwardedError } from "./workflow-endpoint-errors";
import type { TaskOffering } from "./workflow-endpoint-tools";

/** tasks/result blocks until the task ends; a sub-flow may take long. */
const resultWaitMs = 24 * 60 * 60_000;

export interface EndpointTasksOptions {
  /** The host of the session, known once it has initialized. */
  host(): McpHost;
  /** Queues each task's sub-flow as a Run a worker runs (the app); needs `store`. */
  queueTask?: WorkflowEndpointOptions["queueTask"];
  /** Without `queueTask`: runs each task's sub-flow in this process. */
  runTask?: WorkflowEndpointOptions["runTask"];
  pollInterval: number;
  /** Where the tasks are kept (default: this process's memory). */
  store?: EndpointTaskStore;
  /** With a shared store: how often a running task's status is read back, so a cancel from another process stops it (default 250 ms). */
  cancelPollMs?: number;
}

/**
 * The Task Starts of one endpoint session: served by createTaskServer (one
 * per session, so tasks/get, tasks/result, tasks/list and tasks/cancel find
 * the tasks the session created) and reached through an in-process client
 * named like the host. In the app every task call's sub-flow is a queued
 * Run (`queueTask`): this process stores the task, queues the run and
 * follows it while the host may be asked; a worker runs it, writes the
 * call's row (caller `mcp-host:<name>`) and ends the task, so the task
 * outlives this process. Without `queueTask` (tests) the sub-flow runs here
 * (`runTask`) and the task server writes the row when the task ends.
 */
export class EndpointTasks {
  private readonly tasks: TaskServer;
  private readonly innerNames: Map<string, string>;
  private readonly offerings: Map<string, TaskOffering>;
  /** By the call's row id (the sub-flow's parentToolCallId): writes the row into the call's run and ends it. */
  private readonly finishes = new Map<string, (row: ToolCallRow) => Promise<void>>();
  private connection: Promise<InMemoryConnection> | undefined;
  private running = 0;
  /** The host's askers of the calls sent to the task server, in order: its calls start in the order they arrive. */
  private readonly asking: Array<QuestionAsker | undefined> = [];
  /** Aborted on close: this process stops following its queued tasks (their runs go on). */
  private readonly closing = new AbortController();

  constructor(offerings: readonly TaskOffering[], private readonly options: EndpointTasksOptions) {
    this.offerings = new Map(offerings.map((offer) => [offer.taskStartId, offer]));
    this.tasks = createTaskServer({
      // Each call is a run of its own: the row's runId is set by its run's finish.
      runId: "outside-call",
      tasks: offerings.map((offer) => ({ taskStartId: offer.taskStartId, definition: offer.definition })),
      runTask: (request) => this.start(request),
      recordCall: (row) => this.finish(row),
      pollInterval: options.pollInterval,
      ...(options.store ? { store: options.store, cancelPollMs: options.cancelPollMs ?? 250 } : {}),
    });
    this.innerNames = new Map(this.tasks.tools.map((tool) => [tool.taskStartId, tool.name]));
  }

  /** Starts the task and answers with its id at once; the sub-flow goes on in the background. */
  async create(offering: TaskOffering, params: CallToolRequest["params"], signal: AbortSignal, askHost?: QuestionAsker): Promise<CreateTaskResult> {
    if (this.options.queueTask) return (await this.queue(offering, params, askHost, false)).created;
    const client = await this.client();
    this.asking.push(askHost);
    const name = this.innerNames.get(offering.taskStartId) ?? offering.definition.name;
    try {
      return await client.request({ method: "tools/call", params: { name, arguments: params.arguments ?? {} } }, CreateTaskResultSchema, { task: params.task ?? {}, signal });
    } catch (error) {
      throw forwardedError(error, `starting the task ${offering.name}`);
    }
  }

  /**
   * The blocking fallback: starts the task, waits for its end (reading the
   * stored task) and answers with its result; a run that waits for a person
   * the host did not decide for answers with what it waits on (the run goes
   * on once a person decides in the app). The caller giving up cancels it.
   */
  async runToEnd(offering: TaskOffering, params: CallToolRequest["params"], signal: AbortSignal, askHost?: QuestionAsker): Promise<CallToolResult> {
    const started = this.options.queueTask ? await this.queue(offering, { ...params, task: {} }, askHost, true) : { created: await this.create(offering, { ...params, task: {} }, signal, askHost), followed: undefined };
    const { task } = started.created;
    const reading = new AbortController();
    const waits = started.followed?.then((end) => (end.waitsFor ? failedResult(end.waitsFor) : new Promise<never>(() => undefined)));
    try {
      const result = this.result(task.taskId, AbortSignal.any([signal, reading.signal])) as Promise<CallToolResult>;
      return await (waits ? Promise.race([result, waits]) : result);
    } catch (error) {
      if (signal.aborted) await this.cancel(task.taskId, AbortSignal.timeout(5_000)).catch(() => undefined);
      throw error;
    } finally {
      reading.abort();
    }
  }

  get(taskId: string, signal: AbortSignal) {
    return this.forward("reading the task", async (client) => client.experimental.tasks.getTask(taskId, { signal }));
  }

  result(taskId: string, signal: AbortSignal) {
    return this.forward("reading the task's result", async (client) => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { signal, timeout: resultWaitMs }));
  }

  list(cursor: string | undefined, signal: AbortSignal) {
    return this.forward("listing the tasks", async (client) => client.experimental.tasks.listTasks(cursor, { signal }));
  }

  cancel(taskId: string, signal: AbortSignal) {
    return this.forward("cancelling the task", async (client) => client.experimental.tasks.cancelTask(taskId, { signal }));
  }

  /** True while a sub-flow runs here or its row is being written, or while this process follows a queued task's run (the host may be asked). */
  busy(): boolean {
    return this.running > 0;
  }

  /** Cancels what still runs (each run ends cancelled, its row written), then closes the in-process session. */
  async close(): Promise<void> {
    // Not awaited: a follower stops at its next read, and a question still out to the host fails as the server closes.
    this.closing.abort();
    await this.tasks.close();
    const connection = await this.connection?.catch(() => undefined);
    await connection?.close();
  }

  /**
   * Stores the task, queues its run and answers at once; a worker runs the
   * sub-flow and ends the task. `followed` settles when this process stops
   * following the run (undefined when nothing was queued); it follows only
   * for a host that can be asked or a call that waits for the result.
   */
  private async queue(offering: TaskOffering, params: CallToolRequest["params"], askHost: QuestionAsker | undefined, blocking: boolean): Promise<{ created: CreateTaskResult; followed?: Promise<{ waitsFor?: string }> }> {
    const store = this.options.store;
    if (!store) throw new Error("EndpointTasks: a queued task needs a shared task store");
    let task: Task;
    try {
      // No TTL, whatever the host asked: a long sub-flow must not expire mid-way.
      task = await store.createTask({ ttl: null, pollInterval: this.options.pollInterval }, randomUUID(), { method: "tools/call", params });
    } catch (error) {
      throw forwardedError(error, `starting the task ${offering.name}`);
    }
    const call: OutsideCall = { kind: "task", tool: offering.name, server: offering.taskStartId, arguments: params.arguments ?? {}, host: this.options.host(), ...(askHost ? { askHost } : {}) };
    this.running += 1;
    let followed: Promise<{ waitsFor?: string }> | undefined;
    try {
      const queued = await this.options.queueTask!(call, { taskId: task.taskId, signal: this.closing.signal, follow: blocking || askHost !== undefined });
      followed = queued.followed
        .catch((error: unknown) => {
          console.warn(`task ${task.taskId}: following its run ${queued.runId} stopped: ${(error as Error).message.split("\n")[0]}`);
          return {};
        })
        .finally(() => void (this.running -= 1));
    } catch (error) {
      this.running -= 1;
      // Nothing was queued: the task ends failed with the reason, as a sub-flow that could not start does.
      await store.storeTaskResult(task.taskId, "failed", failedResult(`the task could not be run: ${(error as Error).message.split("\n")[0]}`)).catch(() => undefined);
    }
    return { created: { task: (await store.getTask(task.taskId).catch(() => null)) ?? task }, ...(followed ? { followed } : {}) };
  }

  private async start(request: TaskRequest): Promise<TaskOutcome> {
    // Counted from here to finish: the task server always writes the call's row after this, whatever happened.
    this.running += 1;
    const askHost = this.asking.shift();
    const offering = this.offerings.get(request.taskStartId);
    if (!offering) return { ok: false, message: `no Task Start '${request.taskStartId}'` };
    try {
      // With a shared store the task names its run up front: a cancel from another process then reaches the run too.
      const runId = request.taskId && this.options.store?.linkRun ? randomUUID() : undefined;
      if (runId && (await this.options.store!.linkRun!(request.taskId!, runId)).cancelled) return { ok: false, message: "the task was cancelled" };
      const call: OutsideCall = { kind: "task", tool: offering.name, server: offering.taskStartId, arguments: request.args, host: this.options.host(), ...(askHost ? { askHost } : {}), ...(runId ? { runId } : {}) };
      if (!this.options.runTask) return { ok: false, message: "no way to run the task here" };
      const run: OutsideTaskRun = await this.options.runTask(call, request);
      this.finishes.set(request.parentToolCallId, run.finish);
      return run.outcome;
    } catch (error) {
      return { ok: false, message: `the task could not be run: ${(error as Error).message.split("\n")[0]}` };
    }
  }

  /** The task server calls this once per call, after start, whatever happened. */
  private async finish(row: ToolCallRow): Promise<void> {
    const finish = this.finishes.get(row.id);
    this.finishes.delete(row.id);
    try {
      await finish?.(row);
    } finally {
      this.running -= 1;
    }
  }

  /** Opened on first use: by then the host has initialized, so the client can carry its name. */
  private client() {
    this.connection ??= connectInMemory(this.tasks.server.server, this.options.host().name);
    return this.connection.then((connection) => connection.client);
  }

  private async forward<T>(what: string, request: (client: InMemoryConnection["client"]) => Promise<T>): Promise<T> {
    try {
      return await request(await this.client());
    } catch (error) {
      throw forwardedError(error, what);
    }
  }
}
