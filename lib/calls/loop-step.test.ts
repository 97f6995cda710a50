import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../manifest/schemas";
import { sharedSandbox, type Evaluator } from "../sandbox";
import type { LoopState } from "./execute-call";
import { runCalls } from "./run-calls";

let evaluator: Evaluator;
beforeAll(async () => {
  evaluator = await sharedSandbox();
});

const open = call.parse({ name: "open", loop: "open", key: "{{ run.nodeId }}", value: "return inputs.items" });
const read = call.parse({ name: "read", loop: "read", key: "{{ run.nodeId }}" });
const advance = call.parse({ name: "advance", loop: "advance", key: "each", value: "return inputs.keep" });
const scope = (inputs: Record<string, unknown>) => ({ inputs, run: { nodeId: "each" } });

describe("loop steps (no request)", () => {
  it("open, read and advance a loop kept under its key; a list collected is spread, an empty value left out; a finished loop is closed", async () => {
    const loops = new Map<string, LoopState>();
    const context = { evaluator, loops };
    expect((await runCalls([open], scope({ items: ["a", "b"] }), context)).calls.open).toEqual({ item: "a", index: 0, total: 2 });
    expect((await runCalls([advance], scope({ keep: ["A1", "A2"] }), context)).calls.advance).toEqual({ continuing: true, index: 1, total: 2, collected: ["A1", "A2"] });
    expect((await runCalls([read], scope({}), context)).calls.read).toEqual({ item: "b", index: 1, total: 2 });
    expect((await runCalls([advance], scope({ keep: "" }), context)).calls.advance).toEqual({ continuing: false, index: 2, total: 2, collected: ["A1", "A2"] });
    expect(loops.size).toBe(0);
    await expect(runCalls([read], scope({}), context)).rejects.toThrow(/no loop 'each' is open in this run/);
  });

  it("an empty list opens nothing; a list too long, a value that is not a list, or no run to keep loops in are refused", async () => {
    const loops = new Map<string, LoopState>();
    expect((await runCalls([open], scope({ items: [] }), { evaluator, loops })).calls.open).toEqual({ item: null, index: 0, total: 0 });
    expect(loops.size).toBe(0);
    await expect(runCalls([open], scope({ items: Array(1001).fill(1) }), { evaluator, loops })).rejects.toThrow(/1001 items is more than the 1000 allowed/);
    await expect(runCalls([open], scope({ items: "abc" }), { evaluator, loops })).rejects.toThrow(/needs a list as its value, got string/);
    await expect(runCalls([open], scope({ items: [1] }), { evaluator })).rejects.toThrow(/loops are kept per run/);
  });
});
