import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, createMcpHandler, ProtocolError, Server, type ServerContext } from "@modelcontextprotocol/server";
import type { CallToolResult, CreateTaskResult, GetTaskResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import type { McpHost, WorkflowEndpoint } from "./workflow-endpoint";
import { EndpointProtocolError } from "./workflow-endpoint-errors";
import { type EndpointTaskIndex, InMemoryEndpointTaskIndex } from "./workflow-endpoint-task-index";
import type { EndpointTasks } from "./workflow-endpoint-tasks";

/** The MCP extension under which 2026-07-28 servers offer tasks. */
export const tasksExtension = "io.modelcontextprotocol/tasks";

export interface ModernEndpointTarget {
  workflowId: string;
  /** The endpoint for one request, for the host that request names. Throws EndpointRefusal to refuse. */
  open(host: McpHost): Promise<WorkflowEndpoint>;
}

/**
 * The 2026-07-28 side of a workflow's endpoint: stateless. Each request
 * names its caller (`io.modelcontextprotocol/clientInfo` in `_meta`, read
 * per request for the trace's `mcp-host:<client>`), and is answered by a
 * fresh endpoint for that request. A Task Start becomes a task
 * (`resultType: "task"`) only for a request that declares the tasks
 * extension; otherwise the call waits for the sub-flow (the blocking
 * fallback). A task outlives its request: the endpoint that runs it stays
 * open until the task has ended and its result was kept for a while, and
 * `tasks/get` / `tasks/cancel` find it through the task index.
 */
export class ModernWorkflowEndpoints {
  constructor(private readonly index: EndpointTaskIndex = new InMemoryEndpointTaskIndex()) {}

  async handle(request: Request, target: ModernEndpointTarget): Promise<Response> {
    const handler = createMcpHandler(() => this.server(target), { legacy: "reject" });
    try {
      return await handler.fetch(request);
    } finally {
      await handler.close();
    }
  }

  /** Cancels every task still running and closes their endpoints (tests; a server shutting down). */
  closeAll(): Promise<void> {
    return this.index.closeAll();
  }

  private server(target: ModernEndpointTarget): Server {
    const server = new Server(
      { name: `switchboard-workflow:${target.workflowId}`, version: "1.0.0" },
      { capabilities: { tools: {}, extensions: { [tasksExtension]: {} } } },
    );
    server.setRequestHandler("tools/list", async (_request, context) => {
      const endpoint = await target.open(hostOf(context));
      try {
        return { tools: endpoint.tools } as never;
      } finally {
        await endpoint.close();
      }
    });
    server.setRequestHandler("tools/call", async (request, context) => (await this.call(target, request.params, context)) as never);
    server.setRequestHandler("tasks/get", { params: z.looseObject({ taskId: z.string() }) }, async (params, context) => this.withTasks(target, params.taskId, context, (tasks) => this.getTask(target, tasks, params.taskId)));
    server.setRequestHandler("tasks/cancel", { params: z.looseObject({ taskId: z.string() }) }, async (params, context) =>
      this.withTasks(target, params.taskId, context, async (tasks) => {
        await wire(() => tasks.cancel(params.taskId, AbortSignal.timeout(10_000)));
        return { resultType: "complete" };
      }),
    );
    server.setRequestHandler("tasks/update", { params: z.looseObject({ taskId: z.string() }) }, async (params, context) =>
      this.withTasks(target, params.taskId, context, async (tasks) => {
        await wire(() => tasks.get(params.taskId, AbortSignal.timeout(10_000)));
        // A Task Start never asks its host for input: there is nothing to update.
        return { resultType: "complete" };
      }),
    );
    return server;
  }

  private async call(target: ModernEndpointTarget, params: { name: string; arguments?: Record<string, unknown> }, context: ServerContext): Promise<CallToolResult | Record<string, unknown>> {
    const endpoint = await target.open(hostOf(context));
    const signal = context.mcpReq.signal ?? new AbortController().signal;
    let kept = false;
    try {
      if (endpoint.calls.isTask(params.name) && declaresTasks(context)) {
        const created = await wire(() => endpoint.calls.startTask(params, signal));
        this.index.add(target.workflowId, created.task.taskId, endpoint);
        kept = true;
        return { resultType: "task", ...modernTask(created.task) };
      }
      return await wire(() => endpoint.calls.call(params, signal));
    } finally {
      if (!kept) await endpoint.close();
    }
  }

  /**
   * The tasks of the endpoint that runs the task, when this process runs
   * it; otherwise of a fresh endpoint for this request, which reads the
   * task from the shared store (another process runs it, or it ended).
   */
  private async withTasks<T>(target: ModernEndpointTarget, taskId: string, context: ServerContext, work: (tasks: EndpointTasks) => Promise<T>): Promise<T> {
    const entry = this.index.find(target.workflowId, taskId);
    const endpoint = entry?.endpoint ?? (await target.open(hostOf(context)));
    try {
      if (!endpoint.calls.tasks) throw unknownTask(taskId);
      return await work(endpoint.calls.tasks);
    } catch (error) {
      if (error instanceof ProtocolError && /not found/i.test(error.message)) throw unknownTask(taskId);
      throw error;
    } finally {
      if (!entry) await endpoint.close();
    }
  }

  private async getTask(target: ModernEndpointTarget, tasks: EndpointTasks, taskId: string): Promise<Record<string, unknown>> {
    const signal = AbortSignal.timeout(10_000);
    const task = (await wire(() => tasks.get(taskId, signal))) as GetTaskResult;
    const base = { resultType: "complete", ...modernTask(task) };
    if (task.status === "working" || task.status === "input_required") return { ...base, status: "working" };
    if (task.status === "cancelled") return base;
    this.index.ended(target.workflowId, taskId);
    // A Task Start that failed still answered with a result that says why: in this era that is a completed task whose result is an error.
    const result = (await wire(() => tasks.result(taskId, signal))) as CallToolResult;
    return { ...base, status: "completed", result: { resultType: "complete", content: result.content, ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}), ...(result.isError ? { isError: true } : {}) } };
  }
}

/** The caller as the request names itself; the trace row says `mcp-host:<name>`. */
function hostOf(context: ServerContext): McpHost {
  const info = context.mcpReq.envelope?.[CLIENT_INFO_META_KEY as keyof typeof context.mcpReq.envelope] as { name?: unknown; version?: unknown } | undefined;
  return { name: typeof info?.name === "string" && info.name ? info.name : "unknown", version: typeof info?.version === "string" ? info.version : "" };
}

function declaresTasks(context: ServerContext): boolean {
  const capabilities = context.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof context.mcpReq.envelope] as { extensions?: Record<string, unknown> } | undefined;
  return Boolean(capabilities?.extensions && Object.hasOwn(capabilities.extensions, tasksExtension));
}

/** A 2025-era task record in the 2026-07-28 shape (ttlMs, pollIntervalMs). */
function modernTask(task: CreateTaskResult["task"]) {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttl ?? null,
    ...(task.pollInterval ? { pollIntervalMs: task.pollInterval } : {}),
  };
}

function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(-32602, `Unknown task '${taskId}': it ended long ago, or belongs to another workflow.`);
}

/** Our protocol errors keep their code and message on the wire of this era too. */
async function wire<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EndpointProtocolError) throw new ProtocolError(error.code, error.message, error.data);
    throw error;
  }
}
