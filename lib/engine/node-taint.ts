import type { NodeOutcome, RunContext } from "./run-context";

/**
 * Before a node runs: it takes in the taint of every tainted output its
 * signal inputs are wired from (coarse on purpose: an output once set from
 * outside content stays suspect for the rest of the run).
 */
export function inheritInputTaint(nodeId: string, nodeRunId: string, context: RunContext): void {
  for (const edge of context.workflow.edges) {
    if (edge.kind !== "signal" || edge.target !== nodeId) continue;
    const origins = context.taint.outputOrigins(edge.source, edge.sourceHandle);
    if (origins) context.taint.taintNodeRun(nodeRunId, origins);
  }
}

/**
 * After a node ran: when its run took in outside content (a tainted tool
 * result, memory key or input), each output it set is recorded as tainted;
 * for End and Task End, `result`. A tainted Task End marks its task call's
 * result, so the calling agent is tainted when it reads it. Returns the
 * tainted output names for the node-end event.
 */
export async function recordOutputTaint(
  ended: { nodeId: string; nodeRunId: string; parentToolCallId: string | null },
  outcome: NodeOutcome,
  context: RunContext,
): Promise<string[]> {
  if (outcome.status !== "completed" && outcome.status !== "max_turns") return [];
  const outputs = [...Object.keys(outcome.outputs), ...(outcome.result ? ["result"] : [])];
  const tainted = await context.taint.recordOutputs({ nodeId: ended.nodeId, nodeRunId: ended.nodeRunId, outputs });
  if (outcome.result && tainted.length && ended.parentToolCallId) context.taint.recordTaskResult(ended.parentToolCallId, context.taint.originsOf(ended.nodeRunId));
  return tainted;
}
