import { describe, expect, it } from "vitest";
import { formatTraceparent, parseTraceparent, spanIdOf, traceIdOfRun } from "./trace-context";

describe("trace context", () => {
  it("derives stable, distinct W3C ids from a run's ids", () => {
    expect(traceIdOfRun("run-1")).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdOfRun("run-1")).toBe(traceIdOfRun("run-1"));
    expect(traceIdOfRun("run-1")).not.toBe(traceIdOfRun("run-2"));
    const ids = [spanIdOf({ kind: "run", runId: "x" }), spanIdOf({ kind: "node", nodeRunId: "x" }), spanIdOf({ kind: "call", toolCallId: "x" }), spanIdOf({ kind: "turn", turnId: "x" })];
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("reads a traceparent and refuses what is not one", () => {
    expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled: true });
    expect(parseTraceparent(" 00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-00 ")).toMatchObject({ sampled: false });
    // A later version may add fields; version 00 may not.
    expect(parseTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra")).toMatchObject({ spanId: "00f067aa0ba902b7" });
    for (const bad of [undefined, 42, "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "00-4bf9-00f067aa0ba902b7-01"]) {
      expect(parseTraceparent(bad)).toBeNull();
    }
  });

  it("writes a traceparent that reads back", () => {
    const value = formatTraceparent(traceIdOfRun("r"), spanIdOf({ kind: "node", nodeRunId: "n" }));
    expect(parseTraceparent(value)).toEqual({ traceId: traceIdOfRun("r"), spanId: spanIdOf({ kind: "node", nodeRunId: "n" }), sampled: true });
  });
});
