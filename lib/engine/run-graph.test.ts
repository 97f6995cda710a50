import { describe, expect, it } from "vitest";
import { parseWorkflow, type WorkflowInput } from "../graph";
import { MemorySink } from "../trace/memory-sink";
import type { NodeEndEvent, NodeStartEvent, RunEndEvent } from "../trace/run-events";
import { createLocalEnvironment } from "../runs/local-environment";
import { runWorkflow } from "./run-workflow";

/** Start fans out to two Ends, "a" and "b", which run in parallel. */
const fanOut: WorkflowInput = {
  version: 1,
  name: "fan-out",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", required: true }] } },
    { id: "a", type: "end", position: { x: 200, y: 0 }, config: {} },
    { id: "b", type: "end", position: { x: 200, y: 200 }, config: {} },
  ],
  edges: [
    { id: "e1", kind: "signal", source: "start", sourceHandle: "question", target: "a", targetHandle: "result" },
    { id: "e2", kind: "signal", source: "start", sourceHandle: "question", target: "b", targetHandle: "result" },
  ],
};

/** TEST DOUBLE: a database sink that cannot record node "a", and is slow to record node "b". */
class FailingSink extends MemorySink {
  order: string[] = [];
  override async nodeStart(event: NodeStartEvent): Promise<void> {
    if (event.nodeId === "a") throw new Error("database is locked");
    if (event.nodeId === "b") await new Promise((resolve) => setTimeout(resolve, 30));
    this.order.push(`node-start ${event.nodeId}`);
    super.nodeStart(event);
  }
  override nodeEnd(event: NodeEndEvent): void {
    this.order.push(`node-end ${this.nodeStarts.find((start) => start.nodeRunId === event.nodeRunId)?.nodeId ?? "?"} ${event.status}`);
    super.nodeEnd(event);
  }
  override runEnd(event: RunEndEvent): void {
    this.order.push("run-end");
    super.runEnd(event);
  }
}

describe("runGraph", () => {
  it("a node whose trace cannot be written fails that node; the nodes beside it finish before the run ends", async () => {
    const parsed = parseWorkflow(fanOut);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const sink = new FailingSink();
    const outcome = await runWorkflow({ runId: "r", workflowId: null, workflow: parsed.workflow, input: { question: "q" }, sink, env: await createLocalEnvironment() });
    expect(outcome.status).toBe("failed");
    expect(outcome.error).toMatch(/database is locked/);
    await new Promise((resolve) => setTimeout(resolve, 100)); // anything still running would write now
    // Nothing of the run happens after its end: "b" started and ended before run-end.
    expect(sink.order).toContain("node-end b completed");
    expect(sink.order.at(-1)).toBe("run-end");
  });
});
