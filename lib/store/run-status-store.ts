import { createStore, type StoreApi } from "zustand/vanilla";
import type { RunProgressCall } from "../trace/browser";

/**
 * A run as the canvas follows it: the run's status and result, the latest
 * status and outputs of each node, and its tool calls as they are written.
 */
export interface RunStatusState {
  runId: string | null;
  /** The run's own status (e.g. running, completed, failed), "unknown" when it could not be read, null before the first answer. */
  status: string | null;
  byNode: Readonly<Record<string, string>>;
  /** Each node's outputs from its latest run. */
  outputs: Readonly<Record<string, Record<string, unknown>>>;
  /** The run's result (what reached the End), once it ended with one. */
  result: { value: unknown } | null;
  /** The run's tool calls, in the order they were written. */
  calls: readonly RunProgressCall[];
  error: string | null;
  /** The run is over: nothing more will change. */
  finished: boolean;
  /** The call an approval policy stopped, while the run waits for a person (it goes on once they decide). */
  waitingForApproval: { nodeId: string; server: string; tool: string } | null;
  /** Where the run is before it ends, in words (queued, taken by a worker, at a step); from the first moment. */
  stage: string | null;
  /** Each agent's text as its model writes it, while the run runs (the latest turn's); empty once it ends. */
  liveText: Readonly<Record<string, string>>;
  started(runId: string): void;
  reported(report: {
    status: string;
    byNode: Record<string, string>;
    outputs?: Record<string, Record<string, unknown>>;
    result?: { value: unknown } | null;
    /** Calls written since the last report (after the last sequence the store has). */
    newCalls?: readonly RunProgressCall[];
    error?: string | null;
    finished: boolean;
    waitingForApproval?: { nodeId: string; server: string; tool: string } | null;
    stage?: string | null;
  }): void;
  failed(error: string): void;
  /** The run's stream gave more text (each node's latest turn so far); ignored once the run has ended. */
  liveTextChanged(byNode: Record<string, string>): void;
  cleared(): void;
}

export type RunStatusStore = StoreApi<RunStatusState>;

const idle = { runId: null, status: null, byNode: {}, outputs: {}, result: null, calls: [], error: null, finished: false, waitingForApproval: null, stage: null, liveText: {} };

/** The sequence of the last tool call the store has (0 before any). */
export function lastCallSequence(state: Pick<RunStatusState, "calls">): number {
  return state.calls.at(-1)?.sequence ?? 0;
}

export function createRunStatusStore(): RunStatusStore {
  return createStore<RunStatusState>()((set, get) => ({
    ...idle,
    started: (runId) => set({ ...idle, runId, status: "queued", stage: "Queued: waiting for a worker to take the run" }),
    reported: (report) => {
      const known = lastCallSequence(get());
      const fresh = (report.newCalls ?? []).filter((call) => call.sequence > known);
      set({
        status: report.status,
        byNode: report.byNode,
        outputs: report.outputs ?? get().outputs,
        result: report.result === undefined ? get().result : report.result,
        calls: fresh.length > 0 ? [...get().calls, ...fresh] : get().calls,
        error: report.error ?? null,
        finished: report.finished,
        waitingForApproval: report.waitingForApproval ?? null,
        stage: report.finished ? null : (report.stage ?? null),
        ...(report.finished ? { liveText: {} } : {}),
      });
    },
    failed: (error) => set({ status: "unknown", error, finished: true, liveText: {} }),
    liveTextChanged: (byNode) => {
      if (!get().finished && get().runId) set({ liveText: byNode });
    },
    cleared: () => set(idle),
  }));
}
