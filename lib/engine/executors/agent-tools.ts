import { taskToolDefinition } from "../../graph";
import { configValues } from "../../manifest/config-values";
import { connectInMemory } from "../../mcp/in-memory-connection";
import { agentToolsFromClient } from "../../mcp/client-tools";
import { createServiceNodeServer } from "../../mcp/service-node-server";
import { createTaskServer, type OfferedTask } from "../../mcp/task-server";
import type { AgentTool } from "../../tools/agent-tool";
import type { ToolCallRow } from "../../trace/run-events";
import type { RunContext } from "../run-context";
import { resolveCredentials } from "./credentials";

export interface ResolvedTools {
  tools: AgentTool[];
  /** The wired connectors' instructions, for the system prompt. */
  instructions: string[];
}

/**
 * An agent's tools: those wired on the canvas to its consuming connector,
 * then its declared ones (builtin, custom, mcp; see declared-tools.ts),
 * which the preflight resolved before any node ran. On the canvas, each
 * service node on a service edge is started as its own MCP server and
 * reached through a real client session; the Task Starts on task edges
 * become task-required tools of a tasks MCP server (see taskTools). Every
 * connection is closed when the run ends. Names that clash across layers
 * are made unique by the loop (modelToolNames).
 */
export async function resolveAgentTools(agentId: string, connector: string, context: RunContext): Promise<ResolvedTools> {
  const tools: AgentTool[] = [];
  const instructions: string[] = [];
  const edges = context.workflow.edges.filter((edge) => edge.target === agentId && edge.targetHandle === connector);
  for (const edge of edges.filter((candidate) => candidate.kind === "service")) {
    const provider = context.workflow.nodes.find((node) => node.id === edge.source);
    const manifest = provider && context.manifestOf(provider.type);
    if (!provider || !manifest) continue;
    const server = createServiceNodeServer({
      nodeId: provider.id,
      manifest,
      connector: edge.sourceHandle,
      config: configValues(manifest.config, provider.config),
      callContext: { evaluator: context.env.evaluator, ...(await resolveCredentials(manifest, context)), allowedOrigins: context.env.allowedPrivateOrigins },
      runId: context.runId,
      workflowId: context.workflowId,
      recordCall: (row) => recordServiceRow(row, context),
    });
    const connection = await connectInMemory(server, `switchboard-agent:${agentId}`);
    context.resources.add(() => connection.close());
    if (connection.instructions) instructions.push(connection.instructions);
    tools.push(...(await agentToolsFromClient(connection.client, provider.id)));
  }
  const offered = edges
    .filter((candidate) => candidate.kind === "task")
    .flatMap((edge): OfferedTask[] => {
      const taskStart = context.workflow.nodes.find((node) => node.id === edge.source);
      const definition = taskStart && taskToolDefinition(taskStart);
      return taskStart && definition ? [{ taskStartId: taskStart.id, definition }] : [];
    });
  if (offered.length) tools.push(...(await taskTools(agentId, offered, context)));
  tools.push(...(context.declaredTools.get(agentId) ?? []));
  return { tools, instructions };
}

/** A service node's row: a method that made HTTP calls answered with outside content (the server marks the row); it enters the taint registry. */
async function recordServiceRow(row: ToolCallRow, context: RunContext): Promise<void> {
  if (row.tainted && row.nodeRunId) {
    await context.taint.recordToolResult({ source: "mcp", server: row.server, tool: row.tool, nodeId: row.caller, nodeRunId: row.nodeRunId, toolCallId: row.id });
  }
  await context.sink.toolCall(row);
}

/** A task call's row: when its sub-flow's result came from tainted content, the row says so and the caller is tainted. */
async function recordTaskRow(row: ToolCallRow, context: RunContext): Promise<void> {
  const origins = row.isError ? undefined : context.taint.taskResultOrigins(row.id);
  if (origins && row.nodeRunId) context.taint.taintNodeRun(row.nodeRunId, origins);
  await context.sink.toolCall(origins ? { ...row, tainted: true } : row);
}

/**
 * The agent's Task Starts, served by a tasks MCP server of their own and
 * reached through a real client session: each call starts the sub-flow as
 * an MCP task, which the tool follows to its end. The server writes each
 * call's trace row; everything is closed when the run ends.
 */
async function taskTools(agentId: string, offered: OfferedTask[], context: RunContext): Promise<AgentTool[]> {
  const tasks = createTaskServer({
    runId: context.runId,
    tasks: offered,
    runTask: (request) => context.runTask(request),
    recordCall: (row) => recordTaskRow(row, context),
    signal: context.signal,
  });
  const connection = await connectInMemory(tasks.server.server, `switchboard-agent:${agentId}`);
  // Closed newest first: the tasks still running end and write their rows, then the session closes.
  context.resources.add(() => connection.close());
  context.resources.add(() => tasks.close());
  const taskStartOf = new Map(tasks.tools.map((tool) => [tool.name, tool.taskStartId]));
  const tools = await agentToolsFromClient(connection.client, "tasks");
  return tools.map((tool) => ({ ...tool, server: taskStartOf.get(tool.name) ?? tool.server }));
}
