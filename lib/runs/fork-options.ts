import { lookupNodeType, parseWorkflow } from "../graph";
import type { SqlDatabase } from "../db";
import { runNodeTypes } from "./run-environment";

/** What a fork of a run may change besides an edited answer: each agent's current system prompt and model, and whether there is a saved version to fork onto. */
export interface ForkOptions {
  agents: Record<string, { systemPrompt: string | null; model: string | null }>;
  currentVersion: boolean;
}

/**
 * What the run page's fork editor may offer beside an edited answer: per
 * agent node of the run's document, its current system prompt and model
 * (null when its type has no such setting), and whether the run's workflow
 * has a current saved version to fork onto.
 */
export async function forkOptionsOf(db: SqlDatabase, runId: string): Promise<ForkOptions> {
  const [run] = await db.query<{ document: string; workflowId: string | null }>(`SELECT "document", "workflowId" FROM "Run" WHERE "id" = ?`, [runId]);
  if (!run) return { agents: {}, currentVersion: false };
  const [workflow] = run.workflowId ? await db.query<{ id: string }>(`SELECT "id" FROM "Workflow" WHERE "id" = ?`, [run.workflowId]) : [];
  const parsed = parseWorkflow(JSON.parse(run.document));
  if (!parsed.ok) return { agents: {}, currentVersion: Boolean(workflow) };
  const nodeTypes = await runNodeTypes();
  const agents: ForkOptions["agents"] = {};
  for (const node of parsed.workflow.nodes) {
    const info = lookupNodeType(nodeTypes, node.type);
    if (!info?.hasToolExchange) continue;
    const setting = (name: string) => {
      const declared = info.configSchema?.properties?.[name] as { default?: unknown } | undefined;
      if (!declared) return null;
      const value = node.config[name] ?? declared.default;
      return typeof value === "string" ? value : "";
    };
    agents[node.id] = { systemPrompt: setting("systemPrompt"), model: setting("model") };
  }
  return { agents, currentVersion: Boolean(workflow) };
}
