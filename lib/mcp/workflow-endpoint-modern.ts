import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, createMcpHandler, ProtocolError, Server, type ServerContext } from "@modelcontextprotocol/server";
import type { CallToolResult, CreateTaskResult, GetTaskResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import type { McpHost, WorkflowEndpoint } from "./workflow-endpoint";
import { EndpointProtocolError } from "./workflow-endpoint-errors";
import { HostQuestionRounds, TaskQuestions } from "./workflow-endpoint-input-required";
import { type EndpointTaskIndex, InMemoryEndpointTaskIndex } from "./workflow-endpoint-task-index";
import type { EndpointTasks } from "./workflow-endpoint-tasks";

/** The MCP extension under which 2026-07-28 servers offer tasks. */
export const tasksExtension = "io.modelcontextprotocol/tasks";

export interface ModernEndpointTarget {
  workflowId: string;
  /** Who the request's bearer token names (a person's email, or the environment token's name): a question asked of one caller is answered only by them, and their decision names them. */
  principal?: string;
  /** Whose tasks this request may see (lib/db/mcp-endpoint-store.ts `ownerTaskScope`): the running tasks this process holds are found under it, so another person's task id finds nothing here either. Defaults to the workflow. */
  taskScope?: string;
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
 * fallback). A task outlives its request and this process: its sub-flow
 * is a queued run a worker runs, and the stored task is read by any
 * process; the endpoint that started it stays open while it follows the
 * run for the host's questions, found through the task index.
 */
export class ModernWorkflowEndpoints {
  constructor(
    private readonly index: EndpointTaskIndex = new InMemoryEndpointTaskIndex(),
    private readonly rounds: HostQuestionRounds = new HostQuestionRounds(),
    private readonly taskQuestions: TaskQuestions = new TaskQuestions(),
  ) {}

  async handle(request: Request, target: ModernEndpointTarget): Promise<Response> {
    const handler = createMcpHandler(() => this.server(target), { legacy: "reject" });
    try {
      return await handler.fetch(request);
    } finally {
      await handler.close();
    }
  }

  /** Cancels every task still running and closes their endpoints (tests; a server shutting down). */
  async closeAll(): Promise<void> {
    await this.rounds.closeAll();
    this.taskQuestions.closeAll();
    await this.index.closeAll();
  }

  private server(target: ModernEndpointTarget): Server {
    const server = new Server(
      { name: `switchboard-workflow:${target.workflowId}`, version: "1.0.0" },
      { capabilities: { tools: {}, extensions: { [tasksExtension]: {} } } },
    );
    server.setRequestHandler("tools/list", async (_request, context) => {
      const endpoint = await target.open(hostOf(context, target));
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
    server.setRequestHandler("tasks/update", { params: z.looseObject({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()).optional() }) }, async (params, context) =>
      this.withTasks(target, params.taskId, context, async (tasks) => {
        await wire(() => tasks.get(params.taskId, AbortSignal.timeout(10_000)));
        // The host's answer to the question its task showed (input_required): a sub-flow's approval, decided by its user.
        if (!this.taskQuestions.update(`${target.workflowId}/${params.taskId}`, target.principal ?? "", params.inputResponses ?? context.mcpReq.inputResponses)) {
          throw new ProtocolError(-32602, `Task '${params.taskId}' is not waiting for this input: it asks nothing now, or asked another question.`);
        }
        return { resultType: "complete" };
      }),
    );
    return server;
  }

  private async call(target: ModernEndpointTarget, params: { name: string; arguments?: Record<string, unknown> }, context: ServerContext): Promise<CallToolResult | Record<string, unknown>> {
    const who = { workflowId: target.workflowId, principal: target.principal ?? "" };
    // The host sends the call again with the answer to a question the sub-flow asked it (input_required).
    if (this.rounds.isRound(context)) return wire(() => this.rounds.round(params, context, who));
    const endpoint = await target.open(hostOf(context, target));
    const signal = context.mcpReq.signal ?? new AbortController().signal;
    let kept = false;
    try {
      // A host that can be asked (it declared elicitation) decides the sub-flow's approvals itself, through input_required rounds.
      if (endpoint.calls.isTask(params.name) && !declaresTasks(context) && declaresElicitation(context)) {
        kept = true;
        return await wire(() => this.rounds.start(endpoint, params, context, who));
      }
      if (endpoint.calls.isTask(params.name) && declaresTasks(context)) {
        // A host that can be asked is shown the sub-flow's questions as the task's input_required status.
        const asking = declaresElicitation(context) ? this.taskQuestions.asker(who.principal) : undefined;
        const created = await wire(() => endpoint.calls.startTask(params, signal, asking?.ask));
        asking?.started(`${target.workflowId}/${created.task.taskId}`);
        this.index.add(target.taskScope ?? target.workflowId, created.task.taskId, endpoint);
        kept = true;
        return { resultType: "task", ...modernTask(created.task) };
      }
      return await wire(() => endpoint.calls.call(params, signal));
    } finally {
      if (!kept) await endpoint.close();
    }
  }

  /**
   * The tasks of the endpoint that started the task, when this process
   * still follows it (its questions to the host live there); otherwise of
   * a fresh endpoint for this request, which reads the task from the
   * shared store (another process started it, or it ended).
   */
  private async withTasks<T>(target: ModernEndpointTarget, taskId: string, context: ServerContext, work: (tasks: EndpointTasks) => Promise<T>): Promise<T> {
    const entry = this.index.find(target.taskScope ?? target.workflowId, taskId);
    const endpoint = entry?.endpoint ?? (await target.open(hostOf(context, target)));
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
    const key = `${target.workflowId}/${taskId}`;
    const signal = AbortSignal.timeout(10_000);
    const task = (await wire(() => tasks.get(taskId, signal))) as GetTaskResult;
    const base = { resultType: "complete", ...modernTask(task) };
    if (task.status === "working" || task.status === "input_required") {
      const inputRequests = this.taskQuestions.inputRequests(key, target.principal ?? "");
      return inputRequests ? { ...base, status: "input_required", inputRequests } : { ...base, status: "working" };
    }
    this.taskQuestions.ended(key);
    if (task.status === "cancelled") return base;
    this.index.ended(target.taskScope ?? target.workflowId, taskId);
    // A Task Start that failed still answered with a result that says why: in this era that is a completed task whose result is an error.
    const result = (await wire(() => tasks.result(taskId, signal))) as CallToolResult;
    return { ...base, status: "completed", result: { resultType: "complete", content: result.content, ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}), ...(result.isError ? { isError: true } : {}) } };
  }
}

/** The caller as the request names itself; the trace row says `mcp-host:<name>`. */
function hostOf(context: ServerContext, target: ModernEndpointTarget): McpHost {
  const info = context.mcpReq.envelope?.[CLIENT_INFO_META_KEY as keyof typeof context.mcpReq.envelope] as { name?: unknown; version?: unknown } | undefined;
  return { name: typeof info?.name === "string" && info.name ? info.name : "unknown", version: typeof info?.version === "string" ? info.version : "", ...(target.principal ? { person: target.principal } : {}) };
}

/** Whether the request declares it can be asked (elicitation, form mode: an empty object or `form` present). */
function declaresElicitation(context: ServerContext): boolean {
  const capabilities = context.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof context.mcpReq.envelope] as { elicitation?: { form?: unknown; url?: unknown } } | undefined;
  const elicitation = capabilities?.elicitation;
  if (!elicitation || typeof elicitation !== "object") return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
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
