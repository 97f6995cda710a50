import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scriptedModel } from "../../../testing/ai/scripted-model.fixture";
import { runWorkflow } from "../../engine";
import { createLocalEnvironment } from "../../runs/local-environment";
import { taskRoundTripWorkflow } from "../../engine/task-round-trip-workflow";
import { parseWorkflow } from "../../graph";
import { MemorySink } from "../memory-sink";
import type { RunTrace } from "../run-trace";
import { withOtelExport, otelExportFromEnv, type OtelExport } from "./live-export";
import { otlpJson } from "./otlp-json";
import { decodeJsonTraces, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../../../testing/trace/otlp-receiver.fixture";
import { traceSpans } from "./trace-spans";
import { formatTraceparent, spanIdOf, traceIdOfRun } from "./trace-context";

const root = path.resolve(import.meta.dirname, "..", "..", "..");
const apiKey = "sk-otel-secret-9876";

/** An agent that calls a Task; the Task's own agent converts a distance (a real MCP service node) and echoes the API key it was given. */
const document = taskRoundTripWorkflow;

/** Runs the document on the real engine (scripted models, the real unit-converter server) into a MemorySink, exported live to `target`. */
async function runExported(runId: string, target: OtelExport): Promise<MemorySink> {
  const parsed = parseWorkflow(document);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const outer = scriptedModel([{ toolCalls: [{ name: "convert_a_distance", arguments: { question: `26.2 mile in km (key ${apiKey})` } }] }, { text: "about 42 km" }]);
  const inner = scriptedModel([{ toolCalls: [{ name: "convertUnits", arguments: { value: 26.2, from: "mile", to: "kilometre" } }] }, { text: `42.1648128 km, said ${apiKey}` }]);
  const env = await createLocalEnvironment({
    nodesDir: path.join(root, "nodes"),
    overrides: { models: (request) => (request.nodeId === "outer" ? outer : inner), credentials: () => ({ openai: { apiKey } }) },
  });
  const memory = new MemorySink();
  const outcome = await runWorkflow({ runId, workflowId: "wf-1", workflow: parsed.workflow, input: { question: "How far is a marathon?" }, sink: withOtelExport(memory, { workflowName: document.name ?? null }, target), env });
  expect(outcome.status).toBe("completed");
  await target.processor.forceFlush();
  return memory;
}

/** The span tree as "name" lines indented under their parents. */
function tree(spans: readonly ReceivedSpan[]): string[] {
  const lines: string[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const span of spans.filter((candidate) => candidate.parentSpanId === parent)) {
      lines.push(`${"  ".repeat(depth)}${span.name}`);
      walk(span.spanId, depth + 1);
    }
  };
  walk(null, 0);
  return lines;
}

/** The MemorySink's events as the trace a database would read back. */
function traceOf(memory: MemorySink): RunTrace {
  const start = memory.runs[0];
  const end = memory.ends[0];
  return {
    run: { id: start.runId, workflowId: start.workflowId, workflowName: document.name ?? "", status: end.status, input: start.input, outputs: end.outputs, error: end.error, startedAt: start.startedAt, endedAt: end.endedAt },
    nodeRuns: memory.nodeStarts.map((nodeStart) => {
      const nodeEnd = memory.nodeEnds.find((candidate) => candidate.nodeRunId === nodeStart.nodeRunId)!;
      return { ...nodeStart, id: nodeStart.nodeRunId, status: nodeEnd.status, turns: nodeEnd.turns, outputs: nodeEnd.outputs, taintedOutputs: nodeEnd.taintedOutputs ?? [], error: nodeEnd.error, endedAt: nodeEnd.endedAt };
    }),
    toolCalls: memory.toolCalls.map((row, index) => ({ ...row, sequence: index + 1 })),
    taintRecords: memory.taints.map((record, index) => ({ ...record, id: `t${index}`, sequence: 100 + index })),
    modelTurns: memory.modelTurns,
    readAt: end.endedAt,
  };
}

describe("OpenTelemetry export of a run", () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => receiver?.close());

  it("sends the span tree live over OTLP/protobuf: names, parent links and gen_ai attributes, no secret", async () => {
    const target = (await otelExportFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }))!;
    receiver.spans.length = 0;
    const callTool = vi.spyOn(Client.prototype, "callTool");
    const memory = await runExported("otel-live", target);
    // The MCP call to the converter carried the calling agent's span as its traceparent.
    const inner = memory.nodeStarts.find((start) => start.nodeId === "inner")!;
    const sent = callTool.mock.calls.map(([params]) => params).find((params) => params.name === "convertUnits");
    callTool.mockRestore();
    expect(sent?._meta?.traceparent).toBe(formatTraceparent(traceIdOfRun("otel-live"), spanIdOf({ kind: "node", nodeRunId: inner.nodeRunId })));
    // 9 steps and the 4 model turns, each a live `chat` span under its agent.
    const spans = await receiver.waitForSpans(13);
    expect(receiver.contentTypes.every((type) => type === "application/x-protobuf")).toBe(true);
    const chat = "chat scripted model (test double)";
    expect(tree(spans).sort()).toEqual(
      [
        "invoke_workflow Task round trip",
        "  run_node start",
        "  invoke_agent outer",
        `    ${chat}`,
        "    execute_tool convert_a_distance",
        "      run_node task",
        "      invoke_agent inner",
        `        ${chat}`,
        "        execute_tool convertUnits",
        `        ${chat}`,
        "      run_node task-end",
        `    ${chat}`,
        "  run_node end",
      ].sort(),
    );
    expect(spans.filter((span) => span.name === chat).map((span) => span.attributes["gen_ai.usage.input_tokens"])).toEqual([10, 10, 10, 10]);
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([traceIdOfRun("otel-live")]));
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    expect(byName("invoke_workflow Task round trip")).toMatchObject({
      kind: 1,
      serviceName: "switchboard",
      status: { code: 1 },
      attributes: { "gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": "Task round trip", "switchboard.run.id": "otel-live", "switchboard.run.status": "completed", "switchboard.tainted": false },
    });
    expect(byName("invoke_agent inner").attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "inner", "switchboard.node.type": "openai-agent", "switchboard.node.turns": 2 });
    const convert = byName("execute_tool convertUnits");
    const row = memory.toolCalls.find((call) => call.tool === "convertUnits")!;
    expect(convert.spanId).toBe(spanIdOf({ kind: "call", toolCallId: row.id }));
    expect(convert.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "convertUnits",
      "gen_ai.tool.call.id": row.id,
      "switchboard.tool.server": "converter",
      "switchboard.caller": "inner",
      "switchboard.tainted": false,
    });
    // Arguments and results stay out unless the user opts in; the key never appears.
    expect(JSON.stringify(spans)).not.toContain("26.2");
    expect(JSON.stringify(spans)).not.toContain(apiKey);
  }, 60_000);

  it("sends arguments and results when the user opts in (OTLP/JSON), redacted as the trace is", async () => {
    const target = (await otelExportFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", SWITCHBOARD_OTEL_CAPTURE_CONTENT: "true" }))!;
    receiver.spans.length = 0;
    await runExported("otel-content", target);
    const spans = await receiver.waitForSpans(13);
    expect(receiver.contentTypes.at(-1)).toBe("application/json");
    const task = spans.find((span) => span.name === "execute_tool convert_a_distance")!;
    expect(JSON.parse(task.attributes["gen_ai.tool.call.arguments"] as string)).toEqual({ question: "26.2 mile in km (key [redacted])" });
    expect(spans.find((span) => span.name === "execute_tool convertUnits")!.attributes["gen_ai.tool.call.result"]).toContain("42.1648128");
    expect(spans.find((span) => span.name === "invoke_workflow Task round trip")!.attributes["switchboard.run.outputs"]).toContain("about 42 km");
    expect(JSON.stringify(spans)).not.toContain(apiKey);
  }, 60_000);

  it("exports a recorded run later with the very spans it had live", async () => {
    const target = (await otelExportFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }))!;
    receiver.spans.length = 0;
    const memory = await runExported("otel-replay", target);
    const live = await receiver.waitForSpans(13);
    const later = decodeJsonTraces(JSON.parse(await otlpJson(traceSpans(traceOf(memory), { captureContent: false, workflowName: document.name ?? null }))));
    const key = (span: ReceivedSpan) => `${span.spanId}<${span.parentSpanId} ${span.name}`;
    expect(later.map(key).sort()).toEqual(live.map(key).sort());
    expect(later.find((span) => span.name === "execute_tool convertUnits")?.attributes).toEqual(live.find((span) => span.name === "execute_tool convertUnits")?.attributes);
  }, 60_000);

  it("exports nothing without an endpoint, or when the SDK is disabled", async () => {
    expect(await otelExportFromEnv({})).toBeNull();
    expect(await otelExportFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_SDK_DISABLED: "true" })).toBeNull();
    expect(await otelExportFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_TRACES_EXPORTER: "none" })).toBeNull();
    const sink = new MemorySink();
    expect(withOtelExport(sink, {}, null)).toBe(sink);
  });
});
