import type { AgentTool } from "../tools";
import { resolveDeclaredTools, type ToolProblem } from "./executors/declared-tools";
import type { RunContext } from "./run-context";

export type { ToolProblem, ToolProblemCode } from "./executors/declared-tools";

export type PreflightResult = { ok: true; tools: Map<string, AgentTool[]> } | { ok: false; problems: ToolProblem[] };

/**
 * Checks, before any node starts and so before any model is called, that
 * every tool an agent declares can be had: each built-in name exists, each
 * custom name has a registration on the run, each MCP server id resolves
 * and lets the agent in (and offers the tools named). Resolving is the
 * check, so a passing preflight hands back each agent's declared tools,
 * bound to the run. A node that is not an agent may not declare tools.
 */
export async function preflightTools(context: RunContext): Promise<PreflightResult> {
  const tools = new Map<string, AgentTool[]>();
  const problems: ToolProblem[] = [];
  for (const node of context.workflow.nodes) {
    const manifest = context.manifestOf(node.type);
    if (!manifest?.toolExchange) {
      if (node.tools?.length) {
        problems.push({ code: "not-an-agent", nodeId: node.id, message: `node '${node.id}' (${node.type}) is not an agent, so the tools it declares would never be offered; remove them` });
      }
      continue;
    }
    const declared = await resolveDeclaredTools(node, manifest, context);
    problems.push(...declared.problems);
    tools.set(node.id, declared.tools);
  }
  return problems.length ? { ok: false, problems } : { ok: true, tools };
}

/** The run's error when the preflight fails: every problem, each naming its agent. */
export function preflightMessage(problems: readonly ToolProblem[]): string {
  const count = problems.length === 1 ? "1 tool problem" : `${problems.length} tool problems`;
  return `the run did not start, ${count}: ${problems.map((problem) => problem.message).join("; ")}`;
}
