import type { PinSource } from "../evals";
import type { PrismaClient } from "./create-client";
import { fromJsonText } from "./json-text";
import { readWholeRunTrace } from "./whole-run-trace";

/** The journal entries a pin reads: model turns, tool calls and the model contexts turns name. */
const pinnedKinds = ["model-turn", "tool-call", "model-context"];

/**
 * What a pin needs of a recorded run: its trace, the document it ran, its
 * journal, and the saved version of its workflow whose document is that
 * one (the newest such). Null when there is no such run.
 */
export async function readPinSource(db: PrismaClient, runId: string): Promise<PinSource | null> {
  const trace = await readWholeRunTrace(db, runId);
  if (!trace) return null;
  const [run, steps, calls] = await Promise.all([
    db.run.findUnique({ where: { id: runId }, select: { document: true, workflowId: true } }),
    db.runStep.findMany({ where: { runId, kind: { in: pinnedKinds } }, select: { key: true, kind: true, value: true } }),
    // A call's journal entry is its trace row: the outcome the model was handed is kept on it.
    db.toolCall.findMany({ where: { runId, stepKey: { not: null }, outcome: { not: null } }, select: { stepKey: true, outcome: true } }),
  ]);
  if (!run) return null;
  let savedVersion: number | null = null;
  if (run.workflowId) {
    const versions = await db.workflowVersion.findMany({ where: { workflowId: run.workflowId }, select: { number: true, document: true }, orderBy: { number: "desc" } });
    const ran = canonical(run.document);
    savedVersion = versions.find((version) => canonical(version.document) === ran)?.number ?? null;
  }
  return {
    trace,
    document: run.document,
    steps: [
      ...steps.map((step) => ({ key: step.key, kind: step.kind, value: fromJsonText(step.value) })),
      ...calls.map((call) => ({ key: call.stepKey!, kind: "tool-call", value: fromJsonText(call.outcome) })),
    ],
    savedVersion,
  };
}

/** A document's nodes and edges as compared text (a saved version and the frozen run document may differ in key order or extras). */
function canonical(text: string): string {
  const value = fromJsonText(text) as { nodes?: unknown; edges?: unknown } | null;
  return JSON.stringify({ nodes: value?.nodes ?? null, edges: value?.edges ?? null });
}
