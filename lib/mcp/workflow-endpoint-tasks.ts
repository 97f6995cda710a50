import { randomUUID } from "node:crypto";
import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { QuestionAsker } from "../tools/tool-question";
import { type CallToolRequest, type CallToolResult, CallToolResultSchema, type CreateTaskResult, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TaskOutcome, TaskRequest } from "../engine/run-context";
import type { ToolCallRow } from "../trace/run-events";
import { connectInMemory, type InMemoryConnection } from "./in-memory-connection";
import { createTaskServer, type TaskServer } from "./task-server";
import type { McpHost, OutsideCall, OutsideTaskRun, WorkflowEndpointOptions } from "./workflow-endpoint";
import { forwardedError } from "./workflow-endpoint-errors";
import type { TaskOffering } from "./workflow-endpoint-tools";

/** tasks/result blocks until the task ends; a sub-flow may take long. */
const resultWaitMs = 24 * 60 * 60_000;

/** A task store the endpoint can share between processes (the database's PrismaTaskStore). */
export interface EndpointTaskStore extends TaskStore {
  /** Ties a task to the Run of its sub-flow, so a cancel reaches the run; says whether the task was cancelled meanwhile. */
  linkRun?(taskId: string, runId: string): Promise<{ cancelled: boolean }>;
}

export interface EndpointTasksOptions {
  /** The host of the session, known once it has initialized. */
  host(): McpHost;
  runTask: WorkflowEndpointOptions["runTask"];
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
 * named like the host, so each task's row has caller `mcp-host:<name>`.
 * Every task call runs its sub-flow as a Run of its own (`runTask`); the
 * row the task server writes when the task ends goes into that run.
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
    const client = await this.client();
    this.asking.push(askHost);
    const name = this.innerNames.get(offering.taskStartId) ?? offering.definition.name;
    try {
      return await client.request({ method: "tools/call", params: { name, arguments: params.arguments ?? {} } }, CreateTaskResultSchema, { task: params.task ?? {}, signal });
    } catch (error) {
      throw forwardedError(error, `starting the task ${offering.name}`);
    }
  }

  /** The blocking fallback: starts the task, waits for its end and answers with its result; the caller giving up cancels it. */
  async runToEnd(offering: TaskOffering, params: CallToolRequest["params"], signal: AbortSignal, askHost?: QuestionAsker): Promise<CallToolResult> {
    const { task } = await this.create(offering, { ...params, task: {} }, signal, askHost);
    try {
      return (await this.result(task.taskId, signal)) as CallToolResult;
    } catch (error) {
      if (signal.aborted) await this.cancel(task.taskId, AbortSignal.timeout(5_000)).catch(() => undefined);
      throw error;
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

  /** True while a sub-flow runs or its row is being written. */
  busy(): boolean {
    return this.running > 0;
  }

  /** Cancels what still runs (each run ends cancelled, its row written), then closes the in-process session. */
  async close(): Promise<void> {
    await this.tasks.close();
    const connection = await this.connection?.catch(() => undefined);
    await connection?.close();
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
