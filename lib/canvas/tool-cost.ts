import { taskToolDefinition, type Workflow } from "../graph";
import type { ToolSpec } from "./canvas-catalogue";

import { discoveryThresholdTokens, estimateTokens, modelToolNames } from "../tools/tool-budget";

export { discoveryThresholdTokens, estimateTokens, modelToolNames };

export interface AgentToolCost {
  /** How many tools are wired (service methods and tasks). */
  tools: number;
  /** The estimated tokens of their definitions. */
  tokens: number;
  /** True when the agent will start with search_tools and call_tool instead of its tools. */
  discovery: boolean;
  threshold: number;
}

/** Looks up the tools an offering connector of a node type serves. */
export type ToolsOf = (type: string, connector: string) => readonly ToolSpec[];

/**
 * The tool cost of every agent in the workflow: the tools on the service
 * and task edges into its consuming connector, in the engine's order
 * (services first, then tasks, each in edge order).
 *
 * @example agentToolCosts(workflow, { toolsOf, toolConnectorOf })["agent"] // { tools: 2, tokens: 310, discovery: false, ... }
 */
export function agentToolCosts(
  workflow: Pick<Workflow, "nodes" | "edges">,
  lookup: { toolsOf: ToolsOf; toolConnectorOf: (type: string) => string | undefined },
): Record<string, AgentToolCost> {
  const nodesById = new Map(workflow.nodes.map((node) => [node.id, node]));
  const costs: Record<string, AgentToolCost> = {};
  for (const agent of workflow.nodes) {
    const connector = lookup.toolConnectorOf(agent.type);
    if (connector === undefined) continue;
    const edges = workflow.edges.filter((edge) => edge.target === agent.id && edge.targetHandle === connector);
    const tools: ToolSpec[] = [];
    for (const edge of edges) {
      if (edge.kind !== "service") continue;
      const provider = nodesById.get(edge.source);
      if (provider) tools.push(...lookup.toolsOf(provider.type, edge.sourceHandle));
    }
    for (const edge of edges) {
      if (edge.kind !== "task") continue;
      const taskStart = nodesById.get(edge.source);
      const definition = taskStart && taskToolDefinition(taskStart);
      if (definition) tools.push({ name: definition.name, description: definition.description, inputSchema: definition.inputSchema as unknown as Record<string, unknown> });
    }
    const names = modelToolNames(tools.map((tool) => tool.name));
    const tokens = estimateTokens(tools.map((tool, index) => ({ name: names[index], description: tool.description, parameters: tool.inputSchema })));
    costs[agent.id] = { tools: tools.length, tokens: tools.length > 0 ? tokens : 0, discovery: tools.length > 0 && tokens > discoveryThresholdTokens, threshold: discoveryThresholdTokens };
  }
  return costs;
}
