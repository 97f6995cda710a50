import { describe, expect, it } from "vitest";
import type { ClaimedRun, RunQueue } from "./run-queue";
import { RunWorker } from "./run-worker";

/** TEST DOUBLE: a queue in memory whose idle wait ends only on wake() or stop: no polling at all. */
function memoryQueue(runIds: string[]): RunQueue & { claimed: string[] } {
  const waiting = new Set<() => void>();
  const claimed: string[] = [];
  return {
    claimed,
    async claim(workerId, limit) {
      const taken = runIds.splice(0, limit);
      claimed.push(...taken);
      return taken.map((runId): ClaimedRun => ({ runId, workerId, resumeCount: 0 }));
    },
    async heartbeat() {
      return { lost: [], cancelRequested: [] };
    },
    async release() {},
    waitForWork(signal) {
      return new Promise((resolve) => {
        const done = () => {
          waiting.delete(done);
          resolve();
        };
        waiting.add(done);
        signal.addEventListener("abort", done, { once: true });
      });
    },
    wake() {
      for (const done of [...waiting]) done();
    },
    async close() {},
  };
}

describe("RunWorker", () => {
  it("takes the next queued run as soon as a run ends and frees its slot, without waiting for a poll", async () => {
    const queue = memoryQueue(["a", "b", "c"]);
    const finished: string[] = [];
    let allDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (allDone = resolve));
    const worker = new RunWorker({
      queue,
      concurrency: 1,
      timings: { leaseMs: 60_000, heartbeatMs: 60_000, pollMs: 60_000 },
      execute: async (run) => {
        finished.push(run.runId);
        if (finished.length === 3) allDone();
        return "finished";
      },
    });
    worker.start();
    await done;
    await worker.stop();
    expect(finished).toEqual(["a", "b", "c"]);
  });
});
