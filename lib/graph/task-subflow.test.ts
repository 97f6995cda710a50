import { describe, expect, it } from "vitest";
import { edge, node, questionStart, workflowOf } from "../../testing/graph/node-types.fixture";
import { loopsWithoutExit } from "./signal-loops";
import { taskSubflow, taskSubflows, topLevelNodeIds } from "./task-subflow";
import { researchTask } from "../../testing/graph/workflows.fixture";

const research = researchTask("task");
const workflow = workflowOf(
  [questionStart, node("agent", "agent"), node("end", "end"), ...research.nodes, node("check", "checker"), node("task-end", "task-end")],
  [
    edge("signal", "start.question", "agent.prompt"),
    edge("signal", "agent.answer", "end.result"),
    ...research.edges,
    edge("signal", "researcher.answer", "check.text"),
    edge("signal", "check.retry", "researcher.prompt"),
    edge("signal", "check.done", "task-end.result"),
  ],
);

describe("task sub-flows", () => {
  it("are the Task Start and the nodes its signals reach (a task edge is no signal)", () => {
    expect(taskSubflow(workflow, "task")).toEqual(["task", "researcher", "check", "task-end"]);
    expect(taskSubflows(workflow)).toEqual(new Map([["task", ["task", "researcher", "check", "task-end"]]]));
  });

  it("leave the rest to the workflow's own run", () => {
    expect(topLevelNodeIds(workflow)).toEqual(["start", "agent", "end"]);
  });
});

describe("loopsWithoutExit", () => {
  it("finds cycles of unconditional edges, in document order", () => {
    const loops = workflowOf(
      [node("a", "echo"), node("b", "echo"), node("c", "echo"), node("d", "echo")],
      [edge("signal", "b.text", "c.text", "bc"), edge("signal", "c.text", "a.text", "ca"), edge("signal", "a.text", "b.text", "ab"), edge("signal", "d.text", "a.text", "da")],
    );
    expect(loopsWithoutExit(loops, () => false)).toEqual([{ nodeIds: ["a", "b", "c"], edgeIds: ["bc", "ca", "ab"] }]);
    expect(loopsWithoutExit(loops, (candidate) => candidate.id === "ca")).toEqual([]);
  });

  it("handles long chains without recursion", () => {
    const count = 20_000;
    const nodes = Array.from({ length: count }, (_, index) => node(`n${index}`, "echo"));
    const edges = nodes.map((_, index) => edge("signal", `n${index}.text`, `n${(index + 1) % count}.text`));
    expect(loopsWithoutExit(workflowOf(nodes, edges), () => false)[0].nodeIds).toHaveLength(count);
  });
});
