import { createHash } from "node:crypto";
import { isSpanContextValid, TraceFlags } from "@opentelemetry/api";
import { parseTraceParent } from "@opentelemetry/core";

/**
 * Span and trace ids for a run, derived from its ids, so the live export,
 * a later `export-otel` of the same run and a `traceparent` sent on an MCP
 * call all name the same spans. A run started by an outside host that sent
 * a `traceparent` joins that host's trace instead (its trace id, its span
 * as the run's parent).
 */

/** A span of another process that a run hangs under (from a W3C traceparent). */
export interface RemoteParent {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

export type SpanOwner = { kind: "run"; runId: string } | { kind: "node"; nodeRunId: string } | { kind: "call"; toolCallId: string } | { kind: "turn"; turnId: string } | { kind: "wait"; runId: string; key: string };

/** 32 hex digits: the trace of a run with no remote parent. */
export function traceIdOfRun(runId: string): string {
  return nonZero(hash(`switchboard:trace:${runId}`).slice(0, 32));
}

/** 16 hex digits: the span of a run, a node run, a tool call or a model turn. */
export function spanIdOf(owner: SpanOwner): string {
  const id = owner.kind === "run" ? owner.runId : owner.kind === "node" ? owner.nodeRunId : owner.kind === "call" ? owner.toolCallId : owner.kind === "turn" ? owner.turnId : `${owner.runId}:${owner.key}`;
  return nonZero(hash(`switchboard:span:${owner.kind}:${id}`).slice(0, 16));
}

/**
 * Reads a W3C `traceparent` header value with OpenTelemetry's own parser;
 * null when it is absent or not one (all-zero ids, version ff, wrong
 * lengths, fields after a version-00 value). Hex digits are read in either
 * case, as the propagators of other tracers send them.
 *
 * @example
 * parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
 * // { traceId: "4bf9…4736", spanId: "00f0…02b7", sampled: true }
 */
export function parseTraceparent(value: unknown): RemoteParent | null {
  if (typeof value !== "string") return null;
  const context = parseTraceParent(value.trim().toLowerCase());
  if (!context || !isSpanContextValid(context)) return null;
  return { traceId: context.traceId, spanId: context.spanId, sampled: (context.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED };
}

/** A W3C `traceparent` value naming one span: `00-<trace id>-<span id>-01`. */
export function formatTraceparent(traceId: string, spanId: string, sampled = true): string {
  return `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`;
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

// An all-zero id is invalid in W3C trace context; a hash that starts so is vanishingly rare, but never emit one.
function nonZero(hex: string): string {
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
