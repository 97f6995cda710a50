/**
 * What state a run is in. `queued`: written, waiting for a worker;
 * `running`: a worker holds it (by a lease); `needs-attention`: it waits for
 * a person (an approval, a question, a choice after a crash) and holds no
 * process; the other three are ends.
 */
export const runStatuses = ["queued", "running", "needs-attention", "completed", "failed", "cancelled"] as const;

export type RunStatus = (typeof runStatuses)[number];

/** The statuses a run ends in. */
export type RunEnd = Extract<RunStatus, "completed" | "failed" | "cancelled">;

/** The statuses a run waits in without a worker: a person or nothing more will move it. */
export const settledStatuses: ReadonlySet<RunStatus> = new Set(["needs-attention", "completed", "failed", "cancelled"]);

/** The statuses a run may still change from without a person. */
export const liveStatuses: ReadonlySet<RunStatus> = new Set(["queued", "running"]);

/** Whether `value` names a run status (e.g. a filter in a URL). */
export function isRunStatus(value: unknown): value is RunStatus {
  return typeof value === "string" && (runStatuses as readonly string[]).includes(value);
}
