import { describe, expect, it } from "vitest";
import { createRunStatusStore, lastCallSequence } from "./run-status-store";

const call = (sequence: number, tool = "echo") => ({ id: `c${sequence}`, sequence, tool, server: "everything", caller: "agent", isError: false, durationMs: 3 });

describe("the run-status store", () => {
  it("collects a run's tool calls across polls, once each, and keeps outputs and the result", () => {
    const store = createRunStatusStore();
    store.getState().started("run-1");
    store.getState().reported({ status: "running", byNode: { agent: "running" }, newCalls: [call(1)], finished: false });
    expect(lastCallSequence(store.getState())).toBe(1);
    // A poll that overlaps the last one adds only what is new.
    store.getState().reported({ status: "completed", byNode: { agent: "completed" }, outputs: { agent: { answer: "hi" } }, result: { value: "hi" }, newCalls: [call(1), call(2, "get-sum")], finished: true });
    expect(store.getState().calls.map((entry) => entry.tool)).toEqual(["echo", "get-sum"]);
    expect(store.getState()).toMatchObject({ status: "completed", finished: true, outputs: { agent: { answer: "hi" } }, result: { value: "hi" } });
    store.getState().started("run-2");
    expect(store.getState()).toMatchObject({ runId: "run-2", calls: [], outputs: {}, result: null });
  });

  it("shows progress from the first moment: queued as soon as the run starts, then each stage the server reports, none once it ended", () => {
    const store = createRunStatusStore();
    store.getState().started("run-1");
    expect(store.getState().stage).toBe("Queued: waiting for a worker to take the run");
    store.getState().reported({ status: "running", byNode: {}, finished: false, stage: "A worker took the run: starting its first step" });
    expect(store.getState().stage).toBe("A worker took the run: starting its first step");
    store.getState().reported({ status: "completed", byNode: {}, finished: true, stage: "stale" });
    expect(store.getState().stage).toBeNull();
  });
});
