import { createStore, type StoreApi } from "zustand/vanilla";

/** A run as the canvas follows it: the run's status and the latest status of each node. */
export interface RunStatusState {
  runId: string | null;
  /** The run's own status (e.g. running, completed, failed), "unknown" when it could not be read, null before the first answer. */
  status: string | null;
  byNode: Readonly<Record<string, string>>;
  error: string | null;
  /** The run is over: nothing more will change. */
  finished: boolean;
  started(runId: string): void;
  reported(report: { status: string; byNode: Record<string, string>; error?: string | null; finished: boolean }): void;
  failed(error: string): void;
  cleared(): void;
}

export type RunStatusStore = StoreApi<RunStatusState>;

const idle = { runId: null, status: null, byNode: {}, error: null, finished: false };

export function createRunStatusStore(): RunStatusStore {
  return createStore<RunStatusState>()((set) => ({
    ...idle,
    started: (runId) => set({ ...idle, runId, status: "queued" }),
    reported: (report) => set({ status: report.status, byNode: report.byNode, error: report.error ?? null, finished: report.finished }),
    failed: (error) => set({ status: "unknown", error, finished: true }),
    cleared: () => set(idle),
  }));
}
