import { describe, expect, it } from "vitest";
import { modelTurn } from "../../../testing/trace/traces.fixture";
import type { SpanRecord } from "./genai-spans";
import { SpanRecorder } from "./span-recorder";
import { spanIdOf, traceIdOfRun } from "./trace-context";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();

function recorder(options: Partial<ConstructorParameters<typeof SpanRecorder>[0]> = {}) {
  const spans: SpanRecord[] = [];
  const instance = new SpanRecorder({ emit: (span) => spans.push(span), captureContent: false, workflowName: "Demo", ...options });
  instance.runStart({ runId: "r", workflowId: "w", input: { question: "q" }, startedAt: at(0) });
  instance.nodeStart({ runId: "r", nodeRunId: "n", nodeId: "agent", nodeType: "openai-agent", parentToolCallId: null, inputs: {}, startedAt: at(1) });
  return { spans, instance };
}

describe("SpanRecorder", () => {
  it("makes a chat span per model turn under its agent, with the model and usage (turn rows come with durable runs)", () => {
    const { spans, instance } = recorder();
    instance.modelTurn("r", modelTurn("t1", "n", 2, 1, { model: "gpt-4.1", provider: "openai", text: "42 km", inputTokens: 120, outputTokens: 8, finishReason: "stop" }));
    expect(spans[0]).toMatchObject({
      name: "chat gpt-4.1",
      kind: "client",
      traceId: traceIdOfRun("r"),
      spanId: spanIdOf({ kind: "turn", turnId: "t1" }),
      parentSpanId: spanIdOf({ kind: "node", nodeRunId: "n" }),
      attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4.1", "gen_ai.provider.name": "openai", "gen_ai.usage.input_tokens": 120, "gen_ai.usage.output_tokens": 8, "gen_ai.response.finish_reasons": ["stop"] },
    });
    expect(spans[0].attributes["gen_ai.output.messages"]).toBeUndefined();
  });

  it("hangs a run started by an outside host under the host's span, in its trace", () => {
    const remoteParent = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled: true };
    const { spans, instance } = recorder({ remoteParent });
    instance.runEnd({ runId: "r", status: "failed", outputs: {}, error: "boom", endedAt: at(9) });
    const [node, run] = spans;
    // The node the engine never ended closes at the run's end, as failed.
    expect(node).toMatchObject({ name: "invoke_agent agent", traceId: remoteParent.traceId, status: { code: "error", message: "the node run did not end before its run" } });
    expect(run).toMatchObject({ name: "invoke_workflow Demo", traceId: remoteParent.traceId, parentSpanId: remoteParent.spanId, parentIsRemote: true, status: { code: "error", message: "boom" }, attributes: { "error.type": "run_failed" } });
  });

  it("marks taint: the sources on the run, the tainted outputs on the node, the call's own flag", () => {
    const { spans, instance } = recorder();
    instance.toolCall({ id: "c", runId: "r", nodeRunId: "n", tool: "search", server: "web", caller: "agent", arguments: {}, result: "page", error: null, isError: false, tainted: true, startedAt: at(2), durationMs: 3, inputTokens: null, outputTokens: null });
    instance.taintRecord({ kind: "tool-result", runId: "r", source: "mcp", server: "web", tool: "search", nodeId: "agent", nodeRunId: "n", toolCallId: "c", recordedAt: at(5) });
    instance.nodeEnd({ runId: "r", nodeRunId: "n", status: "completed", outputs: { answer: "x" }, error: null, turns: 2, taintedOutputs: ["answer"], endedAt: at(8) });
    instance.runEnd({ runId: "r", status: "completed", outputs: {}, error: null, endedAt: at(9) });
    expect(spans.map((span) => [span.name, span.attributes["switchboard.tainted"]])).toEqual([["execute_tool search", true], ["invoke_agent agent", true], ["invoke_workflow Demo", true]]);
    expect(spans[1].attributes["switchboard.tainted_outputs"]).toEqual(["answer"]);
    expect(spans[2].attributes["switchboard.taint.sources"]).toEqual(["web/search"]);
    expect(spans[0]).toMatchObject({ endedAt: at(5), parentSpanId: spanIdOf({ kind: "node", nodeRunId: "n" }) });
  });
});
