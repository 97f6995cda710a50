import { taskToolDefinition, type Workflow } from "../graph";
import type { ToolSpec } from "./canvas-catalogue";

/**
 * What an agent's wired tools cost in its prompt, and whether it will start
 * in progressive-discovery mode. The engine decides this at run start
 * (lib/engine/agent/discovery.ts and agent-loop.ts); the canvas must not
 * import the engine, so the formula is repeated here, and
 * tool-cost.test.ts checks it against the engine's, number for number.
 */

/** Above this many tokens of tool definitions, an agent starts with search_tools and call_tool. */
export const discoveryThresholdTokens = 2000;

/** The definition a model reads: the same shape the agent loop builds. */
interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** About four characters a token over the JSON of the definitions (the engine's estimate). */
export function estimateTokens(definitions: readonly ToolDefinition[]): number {
  return Math.ceil(JSON.stringify(definitions).length / 4);
}

/** Names a model accepts (letters, digits, _ and -, at most 64); clashes get a suffix. As lib/engine/agent/tool-names.ts. */
export function modelToolNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = name.replace(/[^A-Za-z0-9_-]/g, "_").replace(/^[^A-Za-z]+/, "").slice(0, 60) || "tool";
    let candidate = base;
    for (let index = 2; taken.has(candidate); index++) candidate = `${base.slice(0, 60)}_${index}`;
    taken.add(candidate);
    return candidate;
  });
}

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
