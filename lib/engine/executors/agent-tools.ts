import { randomUUID } from "node:crypto";
import { taskToolDefinition } from "../../graph";
import { configValues } from "../../manifest/config-values";
import { connectInMemory } from "../../mcp/in-memory-connection";
import { agentToolsFromClient } from "../../mcp/client-tools";
import { createServiceNodeServer } from "../../mcp/service-node-server";
import type { AgentTool } from "../../tools/agent-tool";
import type { RunContext } from "../run-context";
import { resolveCredentials } from "./credentials";

export interface ResolvedTools {
  tools: AgentTool[];
  /** The wired connectors' instructions, for the system prompt. */
  instructions: string[];
}

/**
 * The tools wired to an agent's consuming connector: each service node on a
 * service edge is started as its own MCP server and reached through a real
 * client session; each Task Start on a task edge becomes one tool. Every
 * connection is closed when the run ends.
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
      callContext: { evaluator: context.env.evaluator, credentials: await resolveCredentials(manifest, context), allowPrivateUrls: context.env.allowPrivateUrls },
      runId: context.runId,
      recordCall: (row) => context.sink.toolCall(row),
    });
    const connection = await connectInMemory(server, `switchboard-agent:${agentId}`);
    context.resources.add(() => connection.close());
    if (connection.instructions) instructions.push(connection.instructions);
    tools.push(...(await agentToolsFromClient(connection.client, provider.id)));
  }
  for (const edge of edges.filter((candidate) => candidate.kind === "task")) {
    const taskStart = context.workflow.nodes.find((node) => node.id === edge.source);
    const definition = taskStart && taskToolDefinition(taskStart);
    if (!taskStart || !definition) continue;
    tools.push(taskTool(taskStart.id, definition, context));
  }
  return { tools, instructions };
}

function taskTool(taskStartId: string, definition: NonNullable<ReturnType<typeof taskToolDefinition>>, context: RunContext): AgentTool {
  return {
    name: definition.name,
    server: taskStartId,
    description: definition.description,
    inputSchema: definition.inputSchema as unknown as Record<string, unknown>,
    async call(args, meta) {
      const id = randomUUID();
      const started = new Date();
      const outcome = await context.runTask({ taskStartId, args: (args ?? {}) as Record<string, unknown>, parentToolCallId: id, signal: meta.signal });
      const output = outcome.ok ? (typeof outcome.result === "string" ? outcome.result : JSON.stringify(outcome.result ?? null)) : outcome.message;
      await context.sink.toolCall({
        id,
        runId: context.runId,
        nodeRunId: meta.nodeRunId,
        tool: definition.name,
        server: taskStartId,
        caller: meta.callerNodeId,
        arguments: args ?? {},
        result: outcome.ok ? outcome.result : null,
        error: outcome.ok ? null : outcome.message,
        isError: !outcome.ok,
        tainted: false,
        startedAt: started.toISOString(),
        durationMs: Date.now() - started.getTime(),
        inputTokens: meta.usage?.inputTokens ?? null,
        outputTokens: meta.usage?.outputTokens ?? null,
      });
      return { output, isError: !outcome.ok };
    },
  };
}
