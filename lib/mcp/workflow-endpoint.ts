import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type CreateTaskResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Workflow } from "../graph";
import type { QuestionAnswer, QuestionAsker } from "../run-model/tool-question";
import { traceParentOf } from "./trace-meta";
import { EndpointProtocolError } from "./workflow-endpoint-errors";
import { callServiceOffering } from "./workflow-endpoint-service-call";
import { EndpointTasks } from "./workflow-endpoint-tasks";
import type { EndpointTaskStore, McpHost, OutsideCall, OutsideCallEnd, OutsideRun, OutsideTaskRun, QueuedOutsideTask, WorkflowEndpointOptions } from "./workflow-endpoint-types";

export type { EndpointTaskStore, McpHost, OutsideCall, OutsideCallEnd, OutsideRun, OutsideTaskRun, QueuedOutsideTask, WorkflowEndpointOptions };
import { type EndpointOffering, workflowOfferings } from "./workflow-endpoint-tools";

export interface WorkflowEndpoint {
  /** Connect it to one transport: one endpoint per MCP session. */
  server: Server;
  tools: Tool[];
  /** The calls as the 2026-07-28 era makes them: no session, each request on its own. */
  calls: EndpointCalls;
  /** True while a task runs: its session must stay open. */
  busy(): boolean;
  /** Cancels the tasks still running (their runs end cancelled) and closes the session's servers. */
  close(): Promise<void>;
}

/**
 * A workflow as one MCP server for outside hosts (Claude Desktop, ChatGPT,
 * any MCP client): its service nodes' methods are tools, answered by
 * createServiceNodeServer over an in-process session; its titled Task
 * Starts are tasks (EndpointTasks), whose sub-flows are queued Runs a
 * worker runs (`queueTask`). Either way the call's one trace row has caller
 * `mcp-host:<client name>` and no node run. Each call is a Run of its own
 * (`openRun`, `queueTask`). Unknown tools and arguments that fail the schema
 * are protocol errors; a method that ran and failed is an `isError` result.
 */
export function createWorkflowEndpoint(options: WorkflowEndpointOptions): WorkflowEndpoint {
  const manifests = new Map(options.env.catalogue.nodes.flatMap((node) => (node.manifest ? [[node.name, node.manifest] as const] : [])));
  const offerings = workflowOfferings(options.workflow, (type) => manifests.get(type));
  const byName = new Map(offerings.map((offer) => [offer.name, offer]));
  const taskOfferings = offerings.filter((offer) => offer.kind === "task");
  const server = new Server(
    { name: `switchboard-workflow:${options.workflowId}`, title: options.workflow.name, version: "1.0.0" },
    {
      capabilities: { tools: {}, ...(taskOfferings.length ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}) },
      instructions: endpointInstructions(options.workflow, offerings),
    },
  );
  const host = (): McpHost => options.host ?? { name: server.getClientVersion()?.name ?? "unknown", version: server.getClientVersion()?.version ?? "" };
  const tasks = taskOfferings.length ? new EndpointTasks(taskOfferings, { host, runTask: options.runTask, queueTask: options.queueTask, pollInterval: options.taskPollInterval ?? 500, ...(options.taskStore ? { store: options.taskStore } : {}) }) : undefined;
  const tools = offerings.map(listedTool);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  const offeringNamed = (name: string) => {
    const offering = byName.get(name);
    if (!offering) throw new EndpointProtocolError(ErrorCode.InvalidParams, `Unknown tool '${name}'; this workflow offers: ${[...byName.keys()].join(", ") || "no tools"}`);
    return offering;
  };
  const calls: EndpointCalls = {
    async call(params, signal, askHost) {
      const offering = offeringNamed(params.name);
      // A host without task support still gets the Task Start's answer: the call waits for the sub-flow to end.
      if (offering.kind === "task") return tasks!.runToEnd(offering, params, signal, askHost);
      return callServiceOffering({ offering, args: params.arguments ?? {}, host: host(), signal, traceParent: traceParentOf(params._meta) }, options);
    },
    isTask: (name) => byName.get(name)?.kind === "task",
    async startTask(params, signal, askHost) {
      const offering = offeringNamed(params.name);
      if (offering.kind !== "task") throw new EndpointProtocolError(ErrorCode.InvalidParams, `Tool ${offering.name} is not a task`);
      return tasks!.create(offering, { ...params, task: params.task ?? {} }, signal, askHost);
    },
    tasks,
  };
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // A 2025-era host declares elicitation in `initialize`. The endpoint answers calls as JSON (no stream per call), so a sub-flow's question goes out on the session's standalone stream (the host's GET).
    const askHost: QuestionAsker | undefined = server.getClientCapabilities()?.elicitation
      ? async (question) => (await server.request({ method: "elicitation/create", params: question.mode === "url" ? { mode: "url", message: question.message, url: question.url, elicitationId: question.elicitationId ?? crypto.randomUUID() } : { message: question.message, requestedSchema: question.requestedSchema as never } }, ElicitResultSchema, { timeout: hostAnswerTimeoutMs })) as QuestionAnswer
      : undefined;
    if (request.params.task && calls.isTask(request.params.name)) return calls.startTask(request.params, extra.signal, askHost);
    return calls.call(request.params, extra.signal, askHost);
  });
  if (tasks) {
    server.setRequestHandler(GetTaskRequestSchema, (request, extra) => tasks.get(request.params.taskId, extra.signal));
    server.setRequestHandler(GetTaskPayloadRequestSchema, (request, extra) => tasks.result(request.params.taskId, extra.signal));
    server.setRequestHandler(ListTasksRequestSchema, (request, extra) => tasks.list(request.params?.cursor, extra.signal));
    server.setRequestHandler(CancelTaskRequestSchema, (request, extra) => tasks.cancel(request.params.taskId, extra.signal));
  }
  return {
    server,
    tools,
    calls,
    busy: () => tasks?.busy() ?? false,
    async close() {
      await tasks?.close();
      await server.close();
    },
  };
}

/** How long the host's user has to answer a sub-flow's question before the call waits for a person in the app instead. */
const hostAnswerTimeoutMs = 10 * 60_000;

/** Said in every Task Start's description, so a host (and its model) knows a call may take as long as the sub-flow. */
export const taskFallbackNote = " (Runs as an MCP task when the host supports tasks; otherwise the call waits until the sub-flow ends.)";

/** The endpoint's calls, apart from any session: what both eras' servers answer with. */
export interface EndpointCalls {
  /** A service method's result, or a Task Start run to its end (the blocking fallback); `askHost` asks the host a question. */
  call(params: CallToolRequest["params"], signal: AbortSignal, askHost?: QuestionAsker): Promise<CallToolResult>;
  /** Whether the tool is a Task Start. */
  isTask(name: string): boolean;
  /** Starts a Task Start as a task and answers with it at once. */
  startTask(params: CallToolRequest["params"], signal: AbortSignal, askHost?: QuestionAsker): Promise<CreateTaskResult>;
  /** The session's tasks (undefined when the workflow has no Task Start). */
  tasks: EndpointTasks | undefined;
}

/** A service method as its node's server lists it; a Task Start as the tasks server lists it. */
function listedTool(offering: EndpointOffering): Tool {
  if (offering.kind === "task") {
    const { definition } = offering;
    return {
      name: offering.name,
      title: definition.title,
      description: `${definition.description}${taskFallbackNote}`,
      inputSchema: definition.inputSchema as Tool["inputSchema"],
      execution: { taskSupport: "optional" },
    };
  }
  const method = offering.manifest.service![offering.method];
  return {
    name: offering.name,
    title: `${offering.node.label ?? offering.manifest.interface.title}: ${offering.method}`,
    description: method.description,
    inputSchema: method.inputs as Tool["inputSchema"],
    ...(method.outputSchema ? { outputSchema: method.outputSchema as Tool["outputSchema"] } : {}),
    ...(method.annotations ? { annotations: method.annotations } : {}),
  };
}

/** The workflow's description, then each service connector's instructions: what an agent on the canvas would be told. */
function endpointInstructions(workflow: Workflow, offerings: readonly EndpointOffering[]): string | undefined {
  const seen = new Set<string>();
  const parts = workflow.description?.trim() ? [workflow.description.trim()] : [];
  for (const offer of offerings) {
    if (offer.kind !== "service" || seen.has(`${offer.node.id}/${offer.connector}`)) continue;
    seen.add(`${offer.node.id}/${offer.connector}`);
    const connector = offer.manifest.interface.serviceConnectors.find((candidate) => candidate.name === offer.connector);
    if (connector?.instructions?.trim()) parts.push(`${offer.node.label ?? offer.node.id}: ${connector.instructions.trim()}`);
  }
  return parts.length ? parts.join("\n\n") : undefined;
}

/**
 * What the Run of an outside call records as its input: the marker that an
 * MCP host made the call (`mcpHost`), and the call itself.
 *
 * @example outsideCallInput(call) // { mcpHost: { client: "claude-ai", clientVersion: "0.1.0", kind: "service", tool: "convertUnits", server: "converter", arguments: { … } } }
 */
export function outsideCallInput(call: OutsideCall): Record<string, unknown> {
  return { mcpHost: { client: call.host.name, clientVersion: call.host.version, kind: call.kind, tool: call.tool, server: call.server, arguments: call.arguments } };
}
