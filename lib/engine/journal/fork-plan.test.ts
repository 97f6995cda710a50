import { describe, expect, it } from "vitest";
import { type ForkSource, planFork } from "./fork-plan";

const turn = { turn: { text: "", toolCalls: [] } };
const call = { outcome: { output: "{}", isError: false } };
/** Every step in one millisecond, as a scripted model and a quick tool take them. */
const at = "2026-12-01T10:00:00.005Z";

describe("planFork", () => {
  it("keeps the steps of other node runs taken before the fork point by the run's order, though all share one millisecond", () => {
    const sources: ForkSource[] = [
      { key: "clerk#1/t1", kind: "model-turn", value: turn, recordedAt: at, sequence: 1 },
      { key: "side#1/t1", kind: "model-turn", value: turn, recordedAt: at, sequence: 2 },
      { key: "clerk#1/t1/c0", kind: "tool-call", value: call, recordedAt: at, sequence: 3 },
      { key: "side#1/t2", kind: "model-turn", value: turn, recordedAt: at, sequence: 4 },
      { key: "clerk#1/t2", kind: "model-turn", value: turn, recordedAt: at, sequence: 5 },
      // The node after the clerk, started by its last turn.
      { key: "writer#1/t1", kind: "model-turn", value: turn, recordedAt: at, sequence: 6 },
    ];
    const atCall = planFork(sources, "clerk#1/t1/c0");
    if (!atCall.ok) throw new Error(atCall.problem.message);
    expect(atCall.steps.map((step) => step.key)).toEqual(["clerk#1/t1", "side#1/t1", "clerk#1/t1/c0"]);
    // Forked at the writer: the clerk's every step and the side branch came before it.
    const atWriter = planFork(sources, "writer#1/t1");
    if (!atWriter.ok) throw new Error(atWriter.problem.message);
    expect(atWriter.steps.map((step) => step.key)).toEqual(["clerk#1/t1", "side#1/t1", "clerk#1/t1/c0", "side#1/t2", "clerk#1/t2", "writer#1/t1"]);
  });

  it("without an order (steps written before it was kept), by time: a step of another node run in the fork point's own millisecond runs live", () => {
    const sources: ForkSource[] = [
      { key: "clerk#1/t1", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.001Z", sequence: 0 },
      { key: "clerk#1/t1/c0", kind: "tool-call", value: call, recordedAt: at, sequence: 0 },
      { key: "side#1/t1", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.004Z", sequence: 0 },
      { key: "writer#1/t1", kind: "model-turn", value: turn, recordedAt: at, sequence: 0 },
    ];
    const plan = planFork(sources, "clerk#1/t1/c0");
    if (!plan.ok) throw new Error(plan.problem.message);
    expect(plan.steps.map((step) => step.key)).toEqual(["clerk#1/t1", "side#1/t1", "clerk#1/t1/c0"]);
  });

  it("keeps a call of another node run, and the entries beside it, only with the turn that asked for it", () => {
    const sources: ForkSource[] = [
      { key: "a#1/t1", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.001Z", sequence: 0 },
      { key: "a#1/t2", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.010Z", sequence: 0 },
      // Times out of order, as a fork of a fork written before steps had a sequence left them.
      { key: "b#1/t1", kind: "model-turn", value: turn, recordedAt: "2026-12-01T10:00:00.020Z", sequence: 0 },
      { key: "b#1/t1/c0", kind: "tool-call", value: call, recordedAt: "2026-12-01T10:00:00.005Z", sequence: 0 },
      // …with its start and a person's approval beside it: they go with the call.
      { key: "b#1/t1/c0/start", kind: "call-start", value: {}, recordedAt: "2026-12-01T10:00:00.004Z", sequence: 0 },
      { key: "b#1/t1/c0/decision", kind: "decision", value: {}, recordedAt: "2026-12-01T10:00:00.004Z", sequence: 0 },
      { key: "b#1/t1/c0/start/2", kind: "call-start", value: {}, recordedAt: "2026-12-01T10:00:00.004Z", sequence: 0 },
    ];
    const plan = planFork(sources, "a#1/t2");
    if (!plan.ok) throw new Error(plan.problem.message);
    expect(plan.steps.map((step) => step.key)).toEqual(["a#1/t1", "a#1/t2"]);
  });

  it("names the steps a fork may start at when the key is unknown", () => {
    const plan = planFork([{ key: "a#1/t1", kind: "model-turn", value: turn, recordedAt: at, sequence: 1 }], "a#1/t9");
    expect(plan).toMatchObject({ ok: false, problem: { field: "at", message: expect.stringContaining("a#1/t1") } });
  });
});
