import { describe, expect, it } from "vitest";
import { alignSteps, diffRuns } from "./run-diff";
import { runSteps } from "./run-steps";
import { runTotals } from "./run-totals";
import { at, modelTurn, nodeRunRecord, recordedTrace, runRecord, toolCallRecord } from "../../testing/trace/traces.fixture";

/** The demo's shape: start → agent (one convertUnits call) → end, asked a question. */
function demoRun(id: string, question: string, call: { value: number; from: string; to: string; result: number }) {
  return recordedTrace(
    runRecord(id, { input: { question }, outputs: { result: `${call.result} ${call.to}` } }),
    [
      nodeRunRecord(`${id}-start`, "start", 0, { outputs: { question } }),
      nodeRunRecord(`${id}-agent`, "agent", 10, { inputs: { question }, outputs: { answer: `${call.result} ${call.to}` }, turns: 2 }),
      nodeRunRecord(`${id}-end`, "end", 40, { inputs: { result: `${call.result} ${call.to}` } }),
    ],
    [toolCallRecord(`${id}-call`, `${id}-agent`, "convertUnits", 12, 1, { arguments: { value: call.value, from: call.from, to: call.to }, result: { result: call.result }, inputTokens: 100, outputTokens: 20 })],
  );
}

describe("diffRuns", () => {
  it("lines two runs up by node and order and finds where they part", () => {
    const a = demoRun("a", "Convert 26.2 mile to kilometre", { value: 26.2, from: "mile", to: "kilometre", result: 42.1648128 });
    const b = demoRun("b", "Convert 5 kilometre to mile", { value: 5, from: "kilometre", to: "mile", result: 3.10686 });
    const diff = diffRuns(a, b);
    expect(diff.pairs.map((pair) => `${pair.key} ${pair.state}`)).toEqual(["start#1 changed", "agent#1 changed", "agent#1/call 1 changed", "end#1 changed"]);
    expect(diff.firstDivergence).toBe(0);
    expect(diff.sameWorkflow).toBe(true);
    expect(diff.input).toEqual([{ kind: "changed", path: "question", before: "Convert 26.2 mile to kilometre", after: "Convert 5 kilometre to mile", text: expect.arrayContaining([{ kind: "removed", text: "26.2" }, { kind: "added", text: "5" }]) }]);
    const call = diff.pairs[2];
    expect(call.fields.map((field) => field.field)).toEqual(["arguments", "result"]);
    expect(call.fields[0].changes).toEqual([
      { kind: "changed", path: "value", before: 26.2, after: 5 },
      { kind: "changed", path: "from", before: "mile", after: "kilometre" },
      { kind: "changed", path: "to", before: "kilometre", after: "mile" },
    ]);
    expect(call.a).toMatchObject({ callId: "a-call" });
    expect(call.b).toMatchObject({ callId: "b-call" });
  });

  it("says the runs agree when only ids and times differ", () => {
    const a = demoRun("a", "q", { value: 1, from: "mile", to: "kilometre", result: 1.609344 });
    const b = demoRun("b", "q", { value: 1, from: "mile", to: "kilometre", result: 1.609344 });
    b.run.endedAt = at(250);
    const diff = diffRuns(a, b);
    expect(diff.firstDivergence).toBeNull();
    expect(diff.pairs.every((pair) => pair.state === "same" && pair.fields.length === 0)).toBe(true);
    expect(diff.a.totals.durationMs).toBe(100);
    expect(diff.b.totals.durationMs).toBe(250);
  });

  it("places steps only one run has where they came, and the divergence at the first of them", () => {
    const a = demoRun("a", "q", { value: 1, from: "mile", to: "kilometre", result: 1.609344 });
    const b = demoRun("b", "q", { value: 1, from: "mile", to: "kilometre", result: 1.609344 });
    b.toolCalls.push(toolCallRecord("b-extra", "b-agent", "convertUnits", 20, 2, { arguments: { value: 2 } }));
    const diff = diffRuns(a, b);
    expect(diff.pairs.map((pair) => `${pair.key} ${pair.state}`)).toEqual(["start#1 same", "agent#1 same", "agent#1/call 1 same", "agent#1/call 2 only-b", "end#1 same"]);
    expect(diff.firstDivergence).toBe(3);
    expect(diff.b.totals.toolCalls).toBe(2);
  });

  it("pairs a different tool at the same place as a change of tool", () => {
    const a = demoRun("a", "q", { value: 1, from: "mile", to: "kilometre", result: 1.609344 });
    const b = demoRun("b", "q", { value: 1, from: "mile", to: "kilometre", result: 1.609344 });
    b.toolCalls[0] = { ...b.toolCalls[0], tool: "listUnits" };
    const pair = diffRuns(a, b).pairs[2];
    expect(pair.state).toBe("changed");
    expect(pair.fields).toEqual([{ field: "tool", changes: [{ kind: "changed", path: "", before: "convertUnits", after: "listUnits" }] }]);
  });

  it("compares model turns by their answers", () => {
    const a = recordedTrace(runRecord("a"), [nodeRunRecord("na", "agent", 0)], [], [modelTurn("ta", "na", 1, 1, { text: "42 km" })]);
    const b = recordedTrace(runRecord("b"), [nodeRunRecord("nb", "agent", 0)], [], [modelTurn("tb", "nb", 1, 1, { text: "43 km" })]);
    const diff = diffRuns(a, b);
    expect(diff.pairs[1]).toMatchObject({ key: "agent#1/turn 1", state: "changed", fields: [{ field: "answer", changes: [{ kind: "changed", path: "text", before: "42 km", after: "43 km" }] }] });
  });
});

describe("alignSteps", () => {
  it("keeps both orders when each run has steps of its own", () => {
    const a = runSteps({ nodeRuns: [nodeRunRecord("1", "start", 0), nodeRunRecord("2", "left", 1), nodeRunRecord("3", "end", 2)], toolCalls: [] });
    const b = runSteps({ nodeRuns: [nodeRunRecord("1", "start", 0), nodeRunRecord("2", "right", 1), nodeRunRecord("3", "end", 2)], toolCalls: [] });
    expect(alignSteps(a, b).map((pair) => `${pair.key}:${pair.a ? "a" : ""}${pair.b ? "b" : ""}`)).toEqual(["start#1:ab", "left#1:a", "right#1:b", "end#1:ab"]);
  });

  it("still pairs steps the two runs ordered differently", () => {
    const a = runSteps({ nodeRuns: [nodeRunRecord("1", "x", 0), nodeRunRecord("2", "y", 1)], toolCalls: [] });
    const b = runSteps({ nodeRuns: [nodeRunRecord("1", "y", 0), nodeRunRecord("2", "x", 1)], toolCalls: [] });
    expect(alignSteps(a, b).map((pair) => `${pair.key}:${pair.a ? "a" : ""}${pair.b ? "b" : ""}`)).toEqual(["x#1:ab", "y#1:ab"]);
  });
});

describe("runTotals", () => {
  it("counts a turn's tokens once however many calls it asked for", () => {
    const trace = recordedTrace(runRecord("r"), [nodeRunRecord("n", "agent", 0, { turns: 3 })], [
      toolCallRecord("c1", "n", "a", 1, 1, { inputTokens: 100, outputTokens: 10 }),
      toolCallRecord("c2", "n", "b", 2, 2, { inputTokens: 100, outputTokens: 10 }),
      toolCallRecord("c3", "n", "a", 3, 3, { inputTokens: 150, outputTokens: 12 }),
    ]);
    expect(runTotals(trace)).toEqual({ turns: 3, toolCalls: 3, inputTokens: 250, outputTokens: 22, durationMs: 100, costUsd: null });
  });

  it("takes turns, tokens and cost from model-turn rows when the trace has them", () => {
    const turns = [modelTurn("t1", "n", 1, 1, { inputTokens: 10, outputTokens: 2, costUsd: 0.5 }), modelTurn("t2", "n", 2, 2, { inputTokens: 20, outputTokens: 3, costUsd: 0.25 })];
    expect(runTotals(recordedTrace(runRecord("r", { endedAt: null }), [nodeRunRecord("n", "agent", 0, { turns: 9 })], [], turns))).toEqual({
      turns: 2, toolCalls: 0, inputTokens: 30, outputTokens: 5, durationMs: null, costUsd: 0.75,
    });
  });

  it("knows no tokens or cost when nothing reported them", () => {
    const totals = runTotals(recordedTrace(runRecord("r"), [], [toolCallRecord("c", "n", "a", 1, 1)], [modelTurn("t", "n", 1, 1)]));
    expect(totals).toMatchObject({ inputTokens: null, outputTokens: null, costUsd: null });
  });
});
