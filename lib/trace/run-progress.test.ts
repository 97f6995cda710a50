import { describe, expect, it } from "vitest";
import { runStage } from "./run-progress";

describe("runStage", () => {
  it("says where a run is from its first moment: queued, taken by a worker, at its first step", () => {
    expect(runStage({ status: "queued", workerId: null }, [])).toEqual({ step: "queued", label: "Queued: waiting for a worker to take the run" });
    expect(runStage({ status: "running", workerId: "host:1:worker-a" }, [])).toEqual({ step: "taken", label: "A worker took the run (host:1:worker-a): starting its first step" });
    expect(runStage({ status: "running", workerId: "host:1:worker-a" }, [{ nodeId: "start", status: "completed" }, { nodeId: "agent", status: "running" }])).toEqual({
      step: "running",
      label: 'Running: worker host:1:worker-a took it and its first step ("start") started',
    });
  });

  it("a run queued again after it had a worker says so; an ended or waiting run has no stage", () => {
    expect(runStage({ status: "queued", workerId: "host:1:worker-a" }, [{ nodeId: "start", status: "completed" }])?.label).toBe("Queued again: waiting for a worker to take the run up");
    for (const status of ["completed", "failed", "cancelled", "needs-attention"]) expect(runStage({ status }, [])).toBeNull();
  });
});
