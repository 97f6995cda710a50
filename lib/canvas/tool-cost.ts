import { mcpServerNodeType, taskToolDefinition, type Workflow, type WorkflowNode } from "../graph";
import type { ToolSpec } from "./canvas-catalogue";

import { discoveryThresholdTokens, estimateTokens, modelToolNames } from "../tools/tool-budget";

export { discoveryThresholdTokens, estimateTokens, modelToolNames };

/** One tool an agent is offered, with what its definition costs. */
export interface AgentToolItem {
  /** The name the model sees. */
  name: string;
  /** The node it comes from: a service, a Task Start or an MCP server. */
  from: string;
  tokens: number;
}

export interface AgentToolCost {
  /** How many tools are wired (service methods, tasks and MCP server tools). */
  tools: number;
  /** Each tool by name, in the order the model is offered them. */
  items: AgentToolItem[];
  /** The estimated tokens of their definitions. */
  tokens: number;
  /** True when the agent will start with search_tools and call_tool instead of its tools. */
  discovery: boolean;
  threshold: number;
}

/** Looks up the tools an offering connector of a node type serves. */
export type ToolsOf = (type: string, connector: string) => readonly ToolSpec[];

/** The tools an MCP server node offers (its server's, narrowed to its choice). */
export type ServerToolsOf = (node: Pick<WorkflowNode, "type" | "config">) => readonly ToolSpec[];

/**
 * The tool cost of every agent in the workflow: the tools on the service
 * and task edges into its consuming connector, in the engine's order
 * (services first, then tasks, then MCP server nodes, each in edge order).
 *
 * @example agentToolCosts(workflow, { toolsOf, toolConnectorOf })["agent"] // { tools: 2, tokens: 310, discovery: false, ... }
 */
export function agentToolCosts(
  workflow: Pick<Workflow, "nodes" | "edges">,
  lookup: { toolsOf: ToolsOf; toolConnectorOf: (type: string) => string | undefined; serverToolsOf?: ServerToolsOf },
): Record<string, AgentToolCost> {
  const nodesById = new Map(workflow.nodes.map((node) => [node.id, node]));
  const costs: Record<string, AgentToolCost> = {};
  for (const agent of workflow.nodes) {
    const connector = lookup.toolConnectorOf(agent.type);
    if (connector === undefined) continue;
    const edges = workflow.edges.filter((edge) => edge.target === agent.id && edge.targetHandle === connector);
    const tools: (ToolSpec & { from: string })[] = [];
    const servers: WorkflowNode[] = [];
    for (const edge of edges) {
      if (edge.kind !== "service") continue;
      const provider = nodesById.get(edge.source);
      if (provider?.type === mcpServerNodeType) servers.push(provider);
      else if (provider) tools.push(...lookup.toolsOf(provider.type, edge.sourceHandle).map((tool) => ({ ...tool, from: provider.id })));
    }
    for (const edge of edges) {
      if (edge.kind !== "task") continue;
      const taskStart = nodesById.get(edge.source);
      const definition = taskStart && taskToolDefinition(taskStart);
      if (definition) tools.push({ name: definition.name, description: definition.description, inputSchema: definition.inputSchema as unknown as Record<string, unknown>, from: taskStart.id });
    }
    for (const server of servers) tools.push(...(lookup.serverToolsOf?.(server) ?? []).map((tool) => ({ ...tool, from: server.id })));
    const names = modelToolNames(tools.map((tool) => tool.name));
    const definitions = tools.map((tool, index) => ({ name: names[index], description: tool.description, parameters: tool.inputSchema }));
    const tokens = estimateTokens(definitions);
    const items = definitions.map((definition, index) => ({ name: definition.name, from: tools[index].from, tokens: estimateTokens([definition]) }));
    costs[agent.id] = { tools: tools.length, items, tokens: tools.length > 0 ? tokens : 0, discovery: tools.length > 0 && tokens > discoveryThresholdTokens, threshold: discoveryThresholdTokens };
  }
  return costs;
}
