import { describe, expect, it } from "vitest";
import { at, nodeRunRecord, recordedTrace, runRecord, toolCallRecord } from "../../../testing/trace/traces.fixture";
import { traceSpans } from "./trace-spans";
import { spanIdOf } from "./trace-context";

describe("traceSpans with the run's timeline", () => {
  it("exports each wait as a span of its own, under the node run that waited or the run, with who ended it", () => {
    const trace = {
      ...recordedTrace(runRecord("r", { endedAt: at(40_000) }), [nodeRunRecord("n1", "clerk", 10, { endedAt: at(39_000) })], [toolCallRecord("c1", "n1", "send_email", 38_000, 3)]),
      timeline: {
        startedAt: at(0),
        endedAt: at(40_000),
        replay: null,
        nodeRuns: {},
        waits: [
          { key: "queue", kind: "queue" as const, nodeRunId: null, callKey: null, sequence: 0, startedAt: at(0), endedAt: at(10), endedBy: "a worker", label: "Queued until a worker took the run" },
          { key: "clerk#1/t2/c0/waiting", kind: "approval" as const, nodeRunId: "n1", callKey: "clerk#1/t2/c0", sequence: 2, startedAt: at(20), endedAt: at(30_020), endedBy: "ana", label: "Waited for approval of call clerk#1/t2/c0: approved by ana" },
        ],
      },
    };
    const spans = traceSpans(trace, { captureContent: false, workflowName: "mail" });
    const approval = spans.find((span) => span.name === "wait approval")!;
    expect(approval).toMatchObject({ parentSpanId: spanIdOf({ kind: "node", nodeRunId: "n1" }), startedAt: at(20), endedAt: at(30_020), attributes: { "switchboard.wait.kind": "approval", "switchboard.wait.ended_by": "ana", "switchboard.wait.call_key": "clerk#1/t2/c0" } });
    expect(spans.find((span) => span.name === "wait queue")).toMatchObject({ parentSpanId: spanIdOf({ kind: "run", runId: "r" }), endedAt: at(10) });
    expect(new Set(spans.map((span) => span.spanId)).size).toBe(spans.length);
  });
});
