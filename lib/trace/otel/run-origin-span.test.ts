import { describe, expect, it } from "vitest";
import type { SpanRecord } from "./genai-spans";
import { SpanRecorder } from "./span-recorder";

describe("the workflow span", () => {
  it("carries how the run started", () => {
    const spans: SpanRecord[] = [];
    const recorder = new SpanRecorder({ emit: (span) => spans.push(span), captureContent: false, origin: { kind: "webhook", triggerId: "t1", deliveryId: "72d3162e" } });
    recorder.runStart({ runId: "r1", workflowId: "w1", input: {}, startedAt: "2026-12-02T06:00:00.000Z" });
    recorder.runEnd({ runId: "r1", status: "completed", outputs: {}, error: null, endedAt: "2026-12-02T06:00:01.000Z" });
    expect(spans.at(-1)?.attributes).toMatchObject({ "switchboard.run.origin": "webhook", "switchboard.run.origin.detail": "Webhook, delivery 72d3162e" });
  });
});
