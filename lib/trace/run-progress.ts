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
