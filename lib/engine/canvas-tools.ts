import type { TaskToolDefinition } from "../graph";
import type { CallContext } from "../calls";
import type { NodeManifest } from "../manifest";
import type { AgentTool } from "../tools";
import type { ToolCallRow } from "../trace";

/** A Task Start's sub-flow, asked for by a tool call. */
export interface TaskRequest {
  taskStartId: string;
  args: Record<string, unknown>;
  parentToolCallId: string;
  signal?: AbortSignal;
  /** The MCP task that runs it, when a task server started it. */
  taskId?: string;
}

export type TaskOutcome = { ok: true; result: unknown } | { ok: false; message: string };

/** A service node wired to an agent on the canvas: the methods of its offering connector become the agent's tools. */
export interface WiredServiceNode {
  /** The workflow node that offers the tools; it names the server on the trace. */
  nodeId: string;
  manifest: NodeManifest;
  /** The offering connector whose methods are served. */
  connector: string;
  config: Record<string, unknown>;
  callContext: CallContext;
  runId: string;
  workflowId?: string | null;
  /** Writes the trace row of each call the node's server answers. */
  recordCall(row: ToolCallRow): void | Promise<void>;
}

/** The Task Starts wired to an agent on the canvas: each becomes a task-required tool. */
export interface WiredTaskStarts {
  runId: string;
  tasks: readonly { taskStartId: string; definition: TaskToolDefinition }[];
  /** Runs a Task Start's sub-flow (the run's `context.runTask`). */
  runTask(request: TaskRequest): Promise<TaskOutcome>;
  /** Writes the trace row of each task call. */
  recordCall(row: ToolCallRow): void | Promise<void>;
  /** The run's signal: when the run is cancelled, so is every task still running. */
  signal?: AbortSignal;
}

/** Tools served for one agent, and how to close what serves them. */
export interface ServedTools {
  tools: AgentTool[];
  /** The server's instructions, for the agent's system prompt. */
  instructions?: string;
  close(): Promise<void>;
}

/**
 * The port through which an agent reaches the tools wired to it on the
 * canvas: lib/mcp implements it (`canvasToolServers`: each service node and
 * the Task Starts served as in-memory MCP servers, reached through a real
 * client session), and the environment carries it, so the engine imports
 * no MCP code.
 */
export interface CanvasToolServers {
  serviceNode(node: WiredServiceNode, agentId: string): Promise<ServedTools>;
  taskStarts(starts: WiredTaskStarts, agentId: string): Promise<ServedTools>;
}
