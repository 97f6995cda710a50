import { describe, expect, it } from "vitest";
import type { PairState, StepPair } from "./run-diff";
import { foldSameSteps } from "./fold-steps";

const pairs = (states: string): StepPair[] =>
  [...states].map((mark, index) => ({ key: `s${index}`, a: null, b: null, state: ({ "=": "same", x: "changed", a: "only-a", b: "only-b" } as Record<string, PairState>)[mark], fields: [] }));

const shape = (states: string, context?: number) =>
  foldSameSteps(pairs(states), context)
    .map((row) => (row.kind === "pair" ? row.pair.key : `[${row.count}: ${row.firstKey}…${row.lastKey}]`))
    .join(" ");

describe("foldSameSteps", () => {
  it("folds the middle of a long run of identical steps, keeping one on each side of a change", () => {
    expect(shape("======x==")).toBe("s0 [4: s1…s4] s5 s6 s7 s8");
    expect(shape("x=====")).toBe("s0 s1 [3: s2…s4] s5");
  });

  it("keeps short runs and every step that differs", () => {
    expect(shape("===x=a=b")).toBe("s0 s1 s2 s3 s4 s5 s6 s7");
    // Folding two steps into a line would save nothing.
    expect(shape("====")).toBe("s0 s1 s2 s3");
    expect(shape("")).toBe("");
  });

  it("keeps as much context as asked", () => {
    expect(shape("x========x", 2)).toBe("s0 s1 s2 [4: s3…s6] s7 s8 s9");
    expect(shape("==========", 0)).toBe("[10: s0…s9]");
  });
});
