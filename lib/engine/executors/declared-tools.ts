import { type ToolSource, type WorkflowNode, wiredServerSources } from "../../graph";
import { type NodeManifest, configValues } from "../../manifest";
import { type AgentTool, builtinToolNames, createBuiltinTool, customAgentTool, isBuiltinToolName, mcpAgentTools, McpResolveError, type McpResolveProblem, normalizeToolSources, type ToolBinding } from "../../tools";
import type { RunContext } from "../run-context";

export type ToolProblemCode =
  | "invalid-tool-sources"
  | "unknown-builtin"
  | "unregistered-custom-tool"
  | "no-mcp-resolver"
  | "unknown-mcp-server"
  | "mcp-server-not-granted"
  | "mcp-server-unavailable"
  | "unknown-mcp-tool"
  | "not-an-agent";

/** A declared tool that cannot be had: the user's wiring or the run's setup is at fault. */
export interface ToolProblem {
  code: ToolProblemCode;
  nodeId: string;
  message: string;
}

export interface DeclaredTools {
  tools: AgentTool[];
  problems: ToolProblem[];
}

/** Where an agent's declared sources come from: the node's override, else its type's config `tools`. */
export type DeclaredSources = { ok: true; sources: ToolSource[]; from: "node" | "type" | "none" } | { ok: false; problem: ToolProblem };

/**
 * The sources an agent node declares. The node-level override
 * (`node.tools`, even an empty list) replaces the type's own; otherwise the
 * node's effective config `tools` (its value, else the config schema's
 * default), in any ToolSourceInput form. Canvas wiring is not a source.
 */
export function declaredToolSources(node: WorkflowNode, manifest: NodeManifest): DeclaredSources {
  if (node.tools !== undefined) return { ok: true, sources: node.tools, from: "node" };
  const configured = configValues(manifest.config, node.config).tools;
  if (configured === undefined || configured === null) return { ok: true, sources: [], from: "none" };
  try {
    return { ok: true, sources: normalizeToolSources(configured, "config.tools"), from: "type" };
  } catch (error) {
    return { ok: false, problem: { code: "invalid-tool-sources", nodeId: node.id, message: `agent '${node.id}': its ${(error as Error).message}` } };
  }
}

/** What binds this run's tools: the sink for rows, the taint registry, the memory. */
export function runToolBinding(context: RunContext): ToolBinding {
  return { runId: context.runId, recordCall: (row) => context.sink.toolCall(row), taint: context.taint, memory: context.memory, now: context.env.now };
}

/**
 * An agent's declared tools bound to the run: built-ins, custom tools from
 * the run's registry, and registry MCP servers through the environment's
 * resolver, each only when the workflow was granted it (when the run checks
 * grants: `env.grants`). MCP server nodes
 * wired to the agent on the canvas count as `mcp` sources after the declared
 * ones (wiring adds to an override, as service edges do). Every source that
 * cannot be had is a problem naming the agent and the source; the same tool
 * reached twice is offered once.
 */
export async function resolveDeclaredTools(node: WorkflowNode, manifest: NodeManifest, context: RunContext): Promise<DeclaredTools> {
  const declared = declaredToolSources(node, manifest);
  if (!declared.ok) return { tools: [], problems: [declared.problem] };
  const binding = runToolBinding(context);
  const tools: AgentTool[] = [];
  const problems: ToolProblem[] = [];
  const problem = (code: ToolProblemCode, message: string) => problems.push({ code, nodeId: node.id, message: `agent '${node.id}': ${message}` });
  for (const source of [...declared.sources, ...wiredServerSources(context.workflow, node.id)]) {
    if (source.type === "builtin") {
      if (isBuiltinToolName(source.name)) tools.push(createBuiltinTool(source.name, binding));
      else problem("unknown-builtin", `there is no built-in tool '${source.name}' (the built-ins: ${builtinToolNames.join(", ")})`);
    } else if (source.type === "custom") {
      const definition = context.env.customTools?.get(source.name);
      if (definition) tools.push(customAgentTool(definition, binding));
      else problem("unregistered-custom-tool", `no custom tool '${source.name}' is registered on this run (register a defineTool() named '${source.name}')`);
    } else {
      tools.push(...(await mcpSourceTools(node, source, binding, context, problem)));
    }
  }
  return { tools: uniqueTools(tools), problems };
}

async function mcpSourceTools(
  node: WorkflowNode,
  source: Extract<ToolSource, { type: "mcp" }>,
  binding: ToolBinding,
  context: RunContext,
  problem: (code: ToolProblemCode, message: string) => void,
): Promise<AgentTool[]> {
  const grants = context.env.grants;
  if (grants && !grants.servers.has(source.serverId)) {
    problem("mcp-server-not-granted", `MCP server '${source.serverId}' is not granted to this workflow; an editor grants it on the canvas (the server's node) or in the workflow's Grants panel`);
    return [];
  }
  const resolver = context.env.mcpTools;
  if (!resolver) {
    problem("no-mcp-resolver", `MCP server '${source.serverId}' is declared, but this run has no MCP connection manager to reach it`);
    return [];
  }
  try {
    const resolved = await resolver.resolve(
      { serverId: source.serverId, toolNames: source.toolNames },
      { nodeId: node.id, nodeType: node.type },
      // The server's secrets are redacted from everything the run writes from here on.
      { onSecret: (value) => context.secrets.add(value), signal: context.signal },
    );
    for (const name of source.toolNames ?? []) {
      if (!resolved.some((tool) => tool.name === name)) problem("unknown-mcp-tool", `MCP server '${source.serverId}' offers no tool named '${name}'`);
    }
    return mcpAgentTools(source.serverId, resolved, binding);
  } catch (error) {
    const code = error instanceof McpResolveError ? resolveProblemCodes[error.code] : "mcp-server-unavailable";
    problem(code, resolveProblemMessage(error, source.serverId, node));
    return [];
  }
}

const resolveProblemCodes: Record<McpResolveProblem, ToolProblemCode> = {
  "unknown-server": "unknown-mcp-server",
  "server-unavailable": "mcp-server-unavailable",
};

function resolveProblemMessage(error: unknown, serverId: string, node: WorkflowNode): string {
  if (!(error instanceof McpResolveError)) return `MCP server '${serverId}' cannot be reached: ${(error as Error).message}`;
  if (error.code === "unknown-server") return `MCP server '${serverId}' is not in the registry`;
  return error.message;
}

/** The same server's same tool reached through two sources is one tool. */
function uniqueTools(tools: readonly AgentTool[]): AgentTool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    const key = `${tool.server}\u0000${tool.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
