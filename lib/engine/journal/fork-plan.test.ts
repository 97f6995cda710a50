import { describe, expect, it } from "vitest";
import { type ForkSource, planFork } from "./fork-plan";

const turn = { turn: { text: "", toolCalls: [] } };
const call = { outcome: { output: "{}", isError: false } };

describe("planFork", () => {
  it("keeps other node runs' steps recorded before the fork point, and leaves out one stamped in the same millisecond", () => {
    const sources: ForkSource[] = [
      { key: "clerk#1/t1", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.001Z" },
      { key: "clerk#1/t1/c0", kind: "tool-call", value: call, recordedAt: "2026-12-01T10:00:00.005Z" },
      { key: "clerk#1/t2", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.005Z" },
      // A parallel branch: one step well before the fork point, one in its millisecond.
      { key: "side#1/t1", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.004Z" },
      { key: "side#1/t2", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.005Z" },
      // The node after the forked agent, started by its last turn within the same millisecond.
      { key: "writer#1/t1", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.005Z" },
    ];
    const plan = planFork(sources, "clerk#1/t1/c0");
    if (!plan.ok) throw new Error(plan.problem.message);
    expect(plan.steps.map((step) => step.key)).toEqual(["clerk#1/t1", "side#1/t1", "clerk#1/t1/c0"]);
  });

  it("names the steps a fork may start at when the key is unknown", () => {
    const plan = planFork([{ key: "a#1/t1", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.000Z" }], "a#1/t9");
    expect(plan).toMatchObject({ ok: false, problem: { field: "at", message: expect.stringContaining("a#1/t1") } });
  });
});
