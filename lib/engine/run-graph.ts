import { applyOutputs, deliverOutputs, failNode, isRunFinished, planReadyNodes, type RunState, startNodes } from "../graph";
import { executeNode } from "./executors";
import { inheritInputTaint, recordOutputTaint } from "./node-taint";
import type { NodeJob, NodeOutcome, RunContext } from "./run-context";
import { nodeRunKey, stableId } from "../run-model";
import { JournalUnavailableError, RunInterruption } from "./journal/step-recorder";

export interface GraphOutcome {
  /** completed when every node ended completed (or max_turns), else the first failure. */
  ok: boolean;
  error: string | null;
  /** What reached an End (or a Task End). */
  result: unknown;
  cancelled: boolean;
  /** Set when the run stopped unfinished: a call waits for a person, or the journal could not be written. */
  interruption: RunInterruption | null;
}

/**
 * The shell around the pure planner: start what is ready, run it, deliver
 * its outputs, repeat until nothing runs and nothing can start. Nodes that
 * are ready together run in parallel. A running node may also put values
 * out before it ends (its job's `emit`, e.g. an agent after each tool
 * call): they are delivered at once and wake the loop, so their targets
 * start while it keeps working. Used for the workflow's own run and for
 * each call of a task.
 */
export async function runGraph(
  initial: RunState,
  context: RunContext,
  options: { entryValues: Record<string, unknown>; parentToolCallId: string | null },
): Promise<GraphOutcome> {
  let state = initial;
  let firstError: string | null = null;
  let result: unknown = null;
  const running = new Map<string, Promise<void>>();
  const nodes = new Map(context.workflow.nodes.map((node) => [node.id, node]));
  let wake = () => {};

  const finish = (nodeId: string, outcome: NodeOutcome) => {
    if (outcome.status === "needs-attention" || outcome.status === "waiting") return; // the node runs again on resume
    if (outcome.result) result = outcome.result.value;
    const ended = outcome.status === "completed" || outcome.status === "max_turns";
    state = ended ? applyOutputs(state, nodeId, outcome.outputs) : failNode(state, nodeId);
    if (!ended) firstError ??= `${nodes.get(nodeId)?.label ?? nodeId}: ${outcome.error ?? outcome.status}`;
  };
  const emitter = (nodeId: string, nodeRunId: string) => async (outputs: Record<string, unknown>) => {
    // The steps that made these outputs are durable before any node hears of them (a resume could make others).
    await context.recorder.settled();
    // Taint first: a target that starts now inherits it from these outputs.
    await context.taint.recordOutputs({ nodeId, nodeRunId, outputs: Object.keys(outputs) });
    state = deliverOutputs(state, nodeId, outputs);
    wake();
  };

  while (!context.signal.aborted && !context.recorder.interruption) {
    const plan = planReadyNodes(state);
    for (const nodeId of plan.capped) {
      state = failNode(state, nodeId);
      firstError ??= `${nodeId} would run more than ${state.maxRunsPerNode} times in one run; the loop was stopped`;
    }
    state = startNodes(state, plan.start.map((ready) => ready.nodeId));
    for (const ready of plan.start) {
      const node = nodes.get(ready.nodeId);
      if (!node) continue;
      const runKey = nodeRunKey(node.id, state.nodes[node.id]?.runs ?? 1, options.parentToolCallId);
      const nodeRunId = stableId(context.runId, runKey);
      const job: NodeJob = { node, nodeRunId, runKey, inputs: ready.inputs, entryValues: options.entryValues, emit: emitter(node.id, nodeRunId) };
      const task = runNode(job, context, options.parentToolCallId)
        .then((outcome) => finish(node.id, outcome))
        .finally(() => running.delete(nodeRunId));
      running.set(nodeRunId, task);
    }
    if (running.size === 0) {
      if (isRunFinished(state)) break;
      continue;
    }
    await Promise.race([...running.values(), new Promise<void>((resolve) => (wake = resolve))]);
  }
  await Promise.allSettled(running.values());
  const cancelled = context.signal.aborted;
  const interruption = cancelled ? null : context.recorder.interruption;
  if (interruption) return { ok: false, error: interruption.message, result, cancelled, interruption };
  return { ok: !cancelled && firstError === null, error: cancelled ? "the run was cancelled" : firstError, result, cancelled, interruption: null };
}

/**
 * One node run, traced: node-start, the executor, the taint of its outputs, node-end.
 * Never rejects: a sink that cannot record the node (a database gone) fails the node, so
 * the shell still waits for the nodes beside it and never leaves one marked running.
 */
async function runNode(job: NodeJob, context: RunContext, parentToolCallId: string | null): Promise<NodeOutcome> {
  const { node, nodeRunId } = job;
  try {
    await context.sink.nodeStart({ runId: context.runId, nodeRunId, nodeId: node.id, nodeType: node.type, parentToolCallId, inputs: job.inputs, startedAt: new Date().toISOString() });
    inheritInputTaint(node.id, nodeRunId, context);
    let outcome: NodeOutcome;
    try {
      outcome = await executeNode(job, context);
    } catch (error) {
      if (!(error instanceof RunInterruption)) throw error;
      return await interrupted(job, context, error);
    }
    const taintedOutputs = await recordOutputTaint({ nodeId: node.id, nodeRunId, parentToolCallId }, outcome, context);
    await context.sink.nodeEnd({ runId: context.runId, nodeRunId, status: outcome.status, outputs: outcome.outputs, error: outcome.error, turns: outcome.turns, taintedOutputs, endedAt: new Date().toISOString() });
    return outcome;
  } catch (error) {
    if (error instanceof JournalUnavailableError) {
      return interrupted(job, context, new RunInterruption("journal-unavailable", `the run could not be recorded (${error.message}); it resumes once the database is back`, undefined, { cause: error }));
    }
    const failed: NodeOutcome = { status: "failed", outputs: {}, error: `its run could not be recorded: ${(error as Error).message}`, turns: 0 };
    // Best effort: the row may not exist, or the sink may still be down.
    await Promise.resolve()
      .then(() => context.sink.nodeEnd({ runId: context.runId, nodeRunId, status: "failed", outputs: {}, error: failed.error, turns: 0, taintedOutputs: [], endedAt: new Date().toISOString() }))
      .catch(() => undefined);
    return failed;
  }
}

/**
 * A node stopped with its run, unfinished: the one whose call waits for a
 * person shows needs-attention, the others waiting; every other node stops
 * at its next step. A journal that cannot be written leaves the rows as
 * they are (the database is gone); the run resumes once it is back.
 */
async function interrupted(job: NodeJob, context: RunContext, interruption: RunInterruption): Promise<NodeOutcome> {
  context.recorder.stop(interruption);
  const status = interruption.reason === "needs-attention" ? "needs-attention" : "waiting";
  const outcome: NodeOutcome = { status, outputs: {}, error: interruption.message, turns: 0 };
  if (interruption.reason !== "journal-unavailable") {
    await context.sink.nodeEnd({ runId: context.runId, nodeRunId: job.nodeRunId, status, outputs: {}, error: interruption.message, turns: 0, taintedOutputs: [], endedAt: new Date().toISOString() });
  }
  return outcome;
}
