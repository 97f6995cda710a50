import type { NodeStatus, RunStatus } from "./run-events";

/**
 * A run as the canvas follows it: small enough to poll every half second.
 * The run's status and result, the latest run of each top-level node with
 * its outputs, and the tool calls written after the last one the canvas
 * has (without arguments and results: the trace has those).
 */
export interface RunProgress {
  run: {
    id: string;
    status: RunStatus;
    error: string | null;
    outputs: Record<string, unknown>;
    endedAt: string | null;
    /** Set while the run is needs-attention because an approval policy stopped a call: which agent's call to which tool. */
    waitingForApproval?: { nodeId: string; server: string; tool: string };
    /** Where a run that has not ended is, from its first moment: queued, taken by a worker, at a step. */
    stage?: RunStage;
  };
  nodeRuns: { nodeId: string; status: NodeStatus; outputs: Record<string, unknown>; error: string | null }[];
  toolCalls: RunProgressCall[];
}

export interface RunProgressCall {
  id: string;
  sequence: number;
  tool: string;
  server: string;
  caller: string;
  isError: boolean;
  durationMs: number;
}

/** How far a run that has not ended got: queued for a worker, taken by one, at its steps. */
export interface RunStage {
  step: "queued" | "taken" | "running";
  /** In words, for the canvas's run panel and the run page: "Queued: waiting for a worker to take the run". */
  label: string;
}

/**
 * A run's stage from its row and its node runs (null once it ended or while
 * it waits for a person: those say so themselves). A run is "taken" from the
 * moment a worker claims it until its first node run starts, then
 * "running" (node runs in the order they started).
 *
 * @example
 * runStage({ status: "running", workerId: "host:1:worker-a" }, []) // { step: "taken", label: "A worker took the run (host:1:worker-a): starting its first step" }
 */
export function runStage(run: { status: string; workerId?: string | null }, nodeRuns: ReadonlyArray<{ nodeId: string; status: string }>): RunStage | null {
  if (run.status === "queued") return { step: "queued", label: run.workerId ? "Queued again: waiting for a worker to take the run up" : "Queued: waiting for a worker to take the run" };
  if (run.status !== "running") return null;
  if (nodeRuns.length === 0) return { step: "taken", label: `A worker took the run${run.workerId ? ` (${run.workerId})` : ""}: starting its first step` };
  // One sentence per stage, the same while the steps go on: a live region that changed at every step would talk over everything.
  return { step: "running", label: `Running: ${run.workerId ? `worker ${run.workerId}` : "a worker"} took it and its first step ("${nodeRuns[0].nodeId}") started` };
}
