import { describe, expect, it } from "vitest";
import { edge, fixtureNodeTypes, node, questionStart, workflowOf } from "../../testing/graph/node-types.fixture";
import { isRunFinished, planReadyNodes, type ReadyNode } from "./plan";
import { createRunState, type RunState } from "./run-state";
import { applyOutputs, failNode, startNodes } from "./run-transitions";
import type { Workflow } from "./workflow";
import { researchTask, retryLoop } from "../../testing/graph/workflows.fixture";

/** Test double of the engine's shell loop: executors are scripted functions of the ready node. */
function drive(state: RunState, execute: (ready: ReadyNode) => Record<string, unknown>) {
  const started: ReadyNode[] = [];
  const capped: string[] = [];
  for (let round = 0; round < 10_000; round++) {
    const plan = planReadyNodes(state);
    for (const nodeId of plan.capped) {
      capped.push(nodeId);
      state = failNode(state, nodeId);
    }
    if (plan.start.length === 0) break;
    state = startNodes(state, plan.start.map((ready) => ready.nodeId));
    for (const ready of plan.start) {
      started.push(ready);
      state = applyOutputs(state, ready.nodeId, execute(ready));
    }
  }
  return { state, started, order: started.map((ready) => ready.nodeId), capped };
}

/** Every node puts its first input (or the run's question) out on every output of its type. */
const outputsByType: Record<string, (inputs: Record<string, unknown>) => Record<string, unknown>> = {
  start: () => ({ question: "5 km in miles?", started: null }),
  "task-start": () => ({ topic: "otters", started: null }),
  agent: (inputs) => ({ answer: `answer to ${String(inputs.prompt)}` }),
  echo: (inputs) => ({ text: inputs.text }),
  merge: (inputs) => ({ merged: `${String(inputs.left)} + ${String(inputs.right)}` }),
  clock: () => ({ tick: null }),
  end: () => ({}),
  "task-end": () => ({}),
};
const scripted = (ready: ReadyNode) => outputsByType[ready.type]?.(ready.inputs) ?? {};

const state = (workflow: Workflow, options = {}) => createRunState(workflow, fixtureNodeTypes, options);

describe("planReadyNodes", () => {
  it("runs a linear chain in order, each with the values that reached it", () => {
    const workflow = workflowOf(
      [questionStart, node("agent", "agent"), node("end", "end")],
      [edge("signal", "start.question", "agent.prompt"), edge("signal", "agent.answer", "end.result")],
    );
    const run = drive(state(workflow), scripted);
    expect(run.started).toEqual([
      { nodeId: "start", type: "start", run: 1, inputs: {} },
      { nodeId: "agent", type: "agent", run: 1, inputs: { prompt: "5 km in miles?" } },
      { nodeId: "end", type: "end", run: 1, inputs: { result: "answer to 5 km in miles?" } },
    ]);
    expect(isRunFinished(run.state)).toBe(true);
    expect(Object.values(run.state.nodes).map((node) => node.status)).toEqual(["done", "done", "done"]);
  });

  it("fans out: one output's value goes along every edge, and both targets start together", () => {
    const workflow = workflowOf(
      [questionStart, node("left", "echo"), node("right", "echo")],
      [edge("signal", "start.question", "left.text"), edge("signal", "start.question", "right.text")],
    );
    let current = startNodes(state(workflow), ["start"]);
    current = applyOutputs(current, "start", { question: "q", started: null });
    expect(planReadyNodes(current).start.map((ready) => [ready.nodeId, ready.inputs])).toEqual([["left", { text: "q" }], ["right", { text: "q" }]]);
  });

  it("fans in: a node waits until every required input has a value, optional ones do not hold it back", () => {
    const workflow = workflowOf(
      [questionStart, node("a", "agent"), node("b", "agent"), node("merge", "merge")],
      [
        edge("signal", "start.question", "a.prompt"),
        edge("signal", "start.question", "b.prompt"),
        edge("signal", "a.answer", "merge.left"),
        edge("signal", "b.answer", "merge.right"),
      ],
    );
    let current = applyOutputs(startNodes(state(workflow), ["start"]), "start", { question: "q" });
    current = startNodes(current, ["a", "b"]);
    current = applyOutputs(current, "a", { answer: "from a" });
    expect(planReadyNodes(current).start).toEqual([]);
    expect(isRunFinished(current)).toBe(false);
    current = applyOutputs(current, "b", { answer: "from b" });
    expect(planReadyNodes(current).start).toEqual([{ nodeId: "merge", type: "merge", run: 1, inputs: { left: "from a", right: "from b" } }]);
  });

  it("never plans a node that only provides services; a node with no inputs runs once", () => {
    const workflow = workflowOf(
      [questionStart, node("agent", "agent"), node("converter", "converter"), node("provider-with-outputs", "converter-step"), node("clock", "clock"), node("echo", "echo")],
      [edge("signal", "start.question", "agent.prompt"), edge("service", "converter.mcpService", "agent.mcpService"), edge("signal", "clock.tick", "echo.text")],
    );
    const initial = state(workflow);
    expect(initial.graph.order).toEqual(["start", "agent", "clock", "echo"]);
    expect(planReadyNodes(initial).start.map((ready) => ready.nodeId)).toEqual(["start", "clock"]);
    const run = drive(initial, scripted);
    expect(run.order).toEqual(["start", "clock", "agent", "echo"]);
    expect(run.order).not.toContain("converter");
  });

  it("leaves a task's sub-flow out of the workflow's own run, and runs it as the task's", () => {
    const research = researchTask("task");
    const workflow = workflowOf(
      [questionStart, node("agent", "agent"), ...research.nodes, node("task-end", "task-end")],
      [edge("signal", "start.question", "agent.prompt"), ...research.edges, edge("signal", "researcher.answer", "task-end.result")],
    );
    expect(drive(state(workflow), scripted).order).toEqual(["start", "agent"]);
    const taskRun = drive(state(workflow, { taskStartId: "task" }), scripted);
    expect(taskRun.order).toEqual(["task", "researcher", "task-end"]);
    expect(taskRun.started.at(-1)?.inputs).toEqual({ result: "answer to otters" });
    expect(() => state(workflow, { taskStartId: "agent" })).toThrow(/no Task Start/);
  });

  it("caps a node at maxRunsPerNode runs and reports it", () => {
    const workflow = workflowOf(
      [questionStart, node("a", "echo"), node("b", "echo")],
      [edge("signal", "start.question", "a.text"), edge("signal", "a.text", "b.text"), edge("signal", "b.text", "a.text")],
    );
    const run = drive(state(workflow, { maxRunsPerNode: 3 }), scripted);
    expect(run.order).toEqual(["start", "a", "b", "a", "b", "a", "b"]);
    expect(run.capped).toEqual(["a"]);
    expect(run.state.nodes.a).toMatchObject({ status: "failed", runs: 3 });
    expect(isRunFinished(run.state)).toBe(true);
    expect(state(workflow).maxRunsPerNode).toBe(100);
    expect(drive(state(workflow), scripted).state.nodes.a.runs).toBe(100);
  });

  it("ends a loop when its conditional output stays silent", () => {
    const run = drive(state(retryLoop), (ready) => (ready.type === "checker" ? (ready.run < 3 ? { retry: "again" } : { done: "good" }) : scripted(ready)));
    expect(run.order).toEqual(["start", "writer", "check", "writer", "check", "writer", "check", "end"]);
    expect(run.started.at(-1)?.inputs).toEqual({ result: "good" });
  });

  it("reruns a node when a signal arrived while it ran, with the newest value", () => {
    const workflow = workflowOf([node("clock", "clock"), node("echo", "echo"), node("echo2", "echo")], [edge("signal", "clock.tick", "echo.text"), edge("signal", "echo.text", "echo2.text")]);
    let current = applyOutputs(startNodes(state(workflow), ["clock"]), "clock", { tick: null });
    current = startNodes(current, ["echo"]);
    current = applyOutputs(current, "clock", { tick: "late" });
    expect(planReadyNodes(current).start).toEqual([]);
    current = applyOutputs(current, "echo", { text: "first" });
    expect(planReadyNodes(current).start.map((ready) => [ready.nodeId, ready.run, ready.inputs])).toEqual([
      ["echo", 2, { text: "late" }],
      ["echo2", 1, { text: "first" }],
    ]);
  });

  it("never restarts a failed node, nor an entry that ran", () => {
    const workflow = workflowOf([questionStart, node("agent", "agent")], [edge("signal", "start.question", "agent.prompt")]);
    let current = applyOutputs(startNodes(state(workflow), ["start"]), "start", { question: "q" });
    current = failNode(startNodes(current, ["agent"]), "agent");
    expect(planReadyNodes(current)).toEqual({ start: [], capped: [] });
    expect(isRunFinished(current)).toBe(true);
  });
});

describe("run state", () => {
  const workflow = workflowOf([questionStart, node("agent", "agent")], [edge("signal", "start.question", "agent.prompt")]);

  it("is never changed in place, and survives JSON", () => {
    const initial = state(workflow);
    const snapshot = structuredClone(initial);
    const next = applyOutputs(startNodes(initial, ["start"]), "start", { question: "q" });
    expect(initial).toEqual(snapshot);
    expect(JSON.parse(JSON.stringify(next))).toEqual(next);
    expect(planReadyNodes(JSON.parse(JSON.stringify(next))).start.map((ready) => ready.nodeId)).toEqual(["agent"]);
  });

  it("throws on a caller's bug: starting a running node, or a node the run does not cover", () => {
    const running = startNodes(state(workflow), ["start"]);
    expect(() => startNodes(running, ["start"])).toThrow(/already running/);
    expect(() => applyOutputs(running, "ghost", {})).toThrow(/no step of this run/);
    expect(() => createRunState(workflowOf([node("x", "nope")]), fixtureNodeTypes)).toThrow(/validate the workflow/);
  });
});
