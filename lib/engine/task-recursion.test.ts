import { describe, expect, it } from "vitest";
import { parseWorkflow, validateWorkflow, type WorkflowInput } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "./run-workflow";

/**
 * A Task Start whose own sub-flow's agent is wired to the same task: the
 * offline model calls it at every level. The graph validates clean.
 */
const selfCallingTask: WorkflowInput = {
  version: 1,
  name: "self-calling task",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "top", type: "offline-agent", position: { x: 200, y: 0 }, config: {} },
    { id: "end", type: "end", position: { x: 400, y: 0 }, config: {} },
    { id: "answer", type: "task-start", position: { x: 0, y: 200 }, config: { title: "answer question", description: "Answers a question.", inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "inner", type: "offline-agent", position: { x: 200, y: 200 }, config: {} },
    { id: "answer-end", type: "task-end", position: { x: 400, y: 200 }, config: {} },
  ],
  edges: [
    { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "top", targetHandle: "prompt" },
    { id: "e2", kind: "signal", source: "top", sourceHandle: "answer", target: "end", targetHandle: "result" },
    { id: "e3", kind: "signal", source: "answer", sourceHandle: "question", target: "inner", targetHandle: "prompt" },
    { id: "e4", kind: "signal", source: "inner", sourceHandle: "answer", target: "answer-end", targetHandle: "result" },
    { id: "e5", kind: "task", source: "answer", sourceHandle: "task", target: "top", targetHandle: "mcpService" },
    { id: "e6", kind: "task", source: "answer", sourceHandle: "task", target: "inner", targetHandle: "mcpService" },
  ],
};

describe("runWorkflow: tasks", () => {
  it("refuses a task call that would re-enter a task already running up its call chain, so recursion ends", async () => {
    const parsed = parseWorkflow(selfCallingTask);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const env = await createLocalEnvironment();
    expect(validateWorkflow(parsed.workflow, env.nodeTypes).filter((problem) => problem.severity === "error")).toEqual([]);
    const sink = new MemorySink();
    // Without the guard the recursion never yields to a timer and grows until the process runs out of memory:
    // stop it from inside the sink once it is clearly runaway, so the failure is an assertion, not a crash.
    const controller = new AbortController();
    const nodeStart = sink.nodeStart.bind(sink);
    sink.nodeStart = (event) => {
      nodeStart(event);
      if (sink.nodeStarts.length > 200) controller.abort();
    };
    const outcome = await runWorkflow({ runId: "r", workflowId: null, workflow: parsed.workflow, input: { question: "answer question please" }, sink, env, signal: controller.signal });
    expect(sink.nodeStarts.filter((start) => start.nodeId === "inner")).toHaveLength(1);
    expect(outcome.status).toBe("completed");
    const refused = sink.toolCalls.find((row) => row.isError);
    expect(refused?.error).toMatch(/already running/);
  });
});
