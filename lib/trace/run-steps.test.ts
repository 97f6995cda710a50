import { describe, expect, it } from "vitest";
import { runSteps } from "./run-steps";
import { modelTurn, nodeRunRecord, toolCallRecord } from "../../testing/trace/traces.fixture";

describe("runSteps", () => {
  it("orders node runs, their calls and a task's sub-flow, keyed by node and order", () => {
    const steps = runSteps({
      nodeRuns: [
        nodeRunRecord("n-start", "start", 0),
        nodeRunRecord("n-agent", "agent", 1),
        nodeRunRecord("n-sub", "helper", 20, { parentToolCallId: "c-task" }),
        nodeRunRecord("n-agent-2", "agent", 50),
        nodeRunRecord("n-end", "end", 90),
      ],
      toolCalls: [
        toolCallRecord("c-convert", "n-agent", "convertUnits", 5, 1),
        toolCallRecord("c-look", "n-sub", "lookUp", 22, 2),
        toolCallRecord("c-task", "n-agent", "summarize", 19, 3),
        toolCallRecord("c-again", "n-agent-2", "convertUnits", 55, 4),
      ],
    });
    expect(steps.map((step) => `${"  ".repeat(step.depth)}${step.key} ${step.kind}`)).toEqual([
      "start#1 node",
      "agent#1 node",
      "  agent#1/call 1 tool-call",
      "  agent#1/call 2 tool-call",
      "    agent#1/call 2/helper#1 node",
      "      agent#1/call 2/helper#1/call 1 tool-call",
      "agent#2 node",
      "  agent#2/call 1 tool-call",
      "end#1 node",
    ]);
    expect(steps[3]).toMatchObject({ kind: "tool-call", tool: "summarize", nodeId: "agent", callId: "c-task" });
    expect(steps[0]).toMatchObject({ kind: "node", durationMs: 10, nodeRunId: "n-start" });
  });

  it("interleaves model turns with the calls they asked for", () => {
    const steps = runSteps({
      nodeRuns: [nodeRunRecord("n-agent", "agent", 0)],
      toolCalls: [toolCallRecord("c-1", "n-agent", "convertUnits", 4, 2)],
      modelTurns: [modelTurn("t-1", "n-agent", 1, 1, { text: "", inputTokens: 12 }), modelTurn("t-2", "n-agent", 6, 3, { text: "42 km", finishReason: "stop" })],
    });
    expect(steps.map((step) => step.key)).toEqual(["agent#1", "agent#1/turn 1", "agent#1/call 1", "agent#1/turn 2"]);
    expect(steps[3]).toMatchObject({ kind: "model-turn", model: "gpt-test", answer: { text: "42 km", toolCalls: [] }, finishReason: "stop" });
  });

  it("keeps calls no node made (an outside host's), and a sub-flow whose task call has not returned", () => {
    const steps = runSteps({
      nodeRuns: [nodeRunRecord("n-waiting", "helper", 5, { parentToolCallId: "not-yet", endedAt: null, status: "running" })],
      toolCalls: [toolCallRecord("c-host", null, "lookUp", 1, 1, { caller: "mcp-host:claude" })],
    });
    expect(steps.map((step) => step.key)).toEqual(["helper#1", "mcp-host:claude/call 1"]);
    expect(steps[0].durationMs).toBeNull();
  });
});
