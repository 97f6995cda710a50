import { describe, expect, it } from "vitest";
import { edge, fixtureNodeTypes, node, questionStart, workflowOf } from "../../testing/graph/node-types.fixture";
import { isRunFinished, planReadyNodes } from "./plan";
import { createRunState, type RunState } from "./run-state";
import { applyOutputs, deliverOutputs, failNode, startNodes } from "./run-transitions";

/** start → agent; the agent's answer fans out to two echoes, as an agent's `from: tool` row would while it works. */
const workflow = workflowOf(
  [questionStart, node("agent", "agent"), node("log", "echo"), node("audit", "echo")],
  [edge("signal", "start.question", "agent.prompt"), edge("signal", "agent.answer", "log.text"), edge("signal", "agent.answer", "audit.text")],
);

/** The agent is running, started by the run's question. */
function agentRunning() {
  const started = applyOutputs(startNodes(createRunState(workflow, fixtureNodeTypes), ["start"]), "start", { question: "q" });
  return startNodes(started, ["agent"]);
}

const readyNow = (state: RunState) => planReadyNodes(state).start.map((ready) => [ready.nodeId, ready.run, ready.inputs]);

describe("deliverOutputs", () => {
  it("delivers a running node's values along its edges and keeps it running", () => {
    const state = deliverOutputs(agentRunning(), "agent", { answer: "after call 1" });
    expect(state.nodes.agent).toMatchObject({ status: "running", runs: 1 });
    expect(readyNow(state)).toEqual([
      ["log", 1, { text: "after call 1" }],
      ["audit", 1, { text: "after call 1" }],
    ]);
    expect(isRunFinished(state)).toBe(false);
  });

  it("starts the targets again for each delivery, and the final outputs still come when the node ends", () => {
    let state = deliverOutputs(agentRunning(), "agent", { answer: "after call 1" });
    state = applyOutputs(startNodes(state, ["log", "audit"]), "log", {});
    state = applyOutputs(state, "audit", {});
    expect(readyNow(state)).toEqual([]);
    state = deliverOutputs(state, "agent", { answer: "after call 2" });
    expect(readyNow(state)).toEqual([
      ["log", 2, { text: "after call 2" }],
      ["audit", 2, { text: "after call 2" }],
    ]);
    state = applyOutputs(startNodes(state, ["log", "audit"]), "log", {});
    state = applyOutputs(applyOutputs(state, "audit", {}), "agent", { answer: "final" });
    expect(state.nodes.agent.status).toBe("done");
    expect(readyNow(state)).toEqual([
      ["log", 3, { text: "final" }],
      ["audit", 3, { text: "final" }],
    ]);
  });

  it("does not lose a delivery that reaches a busy target: it runs again once done, with the newest value", () => {
    let state = startNodes(deliverOutputs(agentRunning(), "agent", { answer: "1" }), ["log"]);
    state = deliverOutputs(deliverOutputs(state, "agent", { answer: "2" }), "agent", { answer: "3" });
    expect(readyNow(state).map(([nodeId]) => nodeId)).toEqual(["audit"]);
    state = applyOutputs(state, "log", {});
    expect(readyNow(state)).toEqual([
      ["log", 2, { text: "3" }],
      ["audit", 1, { text: "3" }],
    ]);
  });

  it("leaves out values that did not fire, and outputs wired nowhere", () => {
    const before = agentRunning();
    expect(deliverOutputs(before, "agent", { answer: undefined })).toEqual(before);
    expect(deliverOutputs(before, "agent", {})).toEqual(before);
  });

  it("a node that feeds itself while it runs runs again once it is done", () => {
    const looping = workflowOf([questionStart, node("agent", "agent")], [edge("signal", "start.question", "agent.prompt"), edge("signal", "agent.answer", "agent.prompt")]);
    let state = applyOutputs(startNodes(createRunState(looping, fixtureNodeTypes), ["start"]), "start", { question: "q" });
    state = deliverOutputs(startNodes(state, ["agent"]), "agent", { answer: "progress" });
    expect(readyNow(state)).toEqual([]);
    expect(readyNow(applyOutputs(state, "agent", {}))).toEqual([["agent", 2, { prompt: "progress" }]]);
  });

  it("never changes the state it was given, and throws for a node that is not running", () => {
    const running = agentRunning();
    const snapshot = structuredClone(running);
    deliverOutputs(running, "agent", { answer: "x" });
    expect(running).toEqual(snapshot);
    expect(() => deliverOutputs(running, "log", { text: "x" })).toThrow(/"log" is idle, not running/);
    expect(() => deliverOutputs(applyOutputs(running, "agent", {}), "agent", { answer: "x" })).toThrow(/is done, not running/);
    expect(() => deliverOutputs(failNode(running, "agent"), "agent", { answer: "x" })).toThrow(/is failed, not running/);
    expect(() => deliverOutputs(running, "ghost", {})).toThrow(/no step of this run/);
  });
});
