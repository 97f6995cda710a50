import { taskToolDefinition } from "../../graph";
import { configValues } from "../../manifest";
import type { AgentTool } from "../../tools";
import type { ToolCallRow } from "../../trace";
import type { CanvasToolServers, WiredTaskStarts } from "../canvas-tools";
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
 * which the preflight resolved before any node ran. The service nodes on
 * service edges and the Task Starts on task edges are served through the
 * environment's `canvasTools` (lib/mcp: each as an MCP server reached
 * through a real client session). Every server is closed when the run
 * ends. Names that clash across layers are made unique by the loop
 * (modelToolNames).
 */
export async function resolveAgentTools(agentId: string, connector: string, context: RunContext): Promise<ResolvedTools> {
  const tools: AgentTool[] = [];
  const instructions: string[] = [];
  const edges = context.workflow.edges.filter((edge) => edge.target === agentId && edge.targetHandle === connector);
  for (const edge of edges.filter((candidate) => candidate.kind === "service")) {
    const provider = context.workflow.nodes.find((node) => node.id === edge.source);
    const manifest = provider && context.manifestOf(provider.type);
    if (!provider || !manifest) continue;
    const served = await canvasTools(context).serviceNode(
      {
        nodeId: provider.id,
        manifest,
        connector: edge.sourceHandle,
        config: configValues(manifest.config, provider.config),
        callContext: { evaluator: context.env.evaluator, ...(await resolveCredentials(manifest, context)), allowedOrigins: context.env.allowedPrivateOrigins },
        runId: context.runId,
        workflowId: context.workflowId,
        recordCall: (row) => recordServiceRow(row, context),
      },
      agentId,
    );
    context.resources.add(() => served.close());
    if (served.instructions) instructions.push(served.instructions);
    tools.push(...served.tools);
  }
  const offered = edges
    .filter((candidate) => candidate.kind === "task")
    .flatMap((edge): WiredTaskStarts["tasks"][number][] => {
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

/** The environment's canvas tool servers; a run whose environment has none cannot serve its wired tools. */
function canvasTools(context: RunContext): CanvasToolServers {
  if (!context.env.canvasTools) throw new Error("this environment serves no canvas tools (EngineEnvironment.canvasTools): build it with createLocalEnvironment from lib/runs");
  return context.env.canvasTools;
}

/**
 * The agent's Task Starts as task-required tools: each call starts the
 * sub-flow as a task, which the tool follows to its end. The tasks' server
 * writes each call's trace row; everything is closed when the run ends.
 */
async function taskTools(agentId: string, offered: WiredTaskStarts["tasks"], context: RunContext): Promise<AgentTool[]> {
  const served = await canvasTools(context).taskStarts(
    {
      runId: context.runId,
      tasks: offered,
      runTask: (request) => context.runTask(request),
      recordCall: (row) => recordTaskRow(row, context),
      signal: context.signal,
    },
    agentId,
  );
  context.resources.add(() => served.close());
  return served.tools;
}
