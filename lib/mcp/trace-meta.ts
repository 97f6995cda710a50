import { traceparentOfNodeRun, parseTraceparent, type RemoteParent } from "../trace";

/**
 * W3C trace context in MCP `_meta` (the key `traceparent`, as MCP's
 * OpenTelemetry conventions carry it), so a host's trace and Switchboard's
 * join up. Two hooks, and nothing else of lib/mcp knows about tracing:
 * `traceMetaOf` for the `_meta` of an outgoing tools/call, and
 * `traceParentOf` for the `_meta` of an incoming one.
 */
export const traceparentMetaKey = "traceparent";

/**
 * The `_meta` entries an outgoing call of this node run carries: its
 * agent's span as the remote parent; none when the run is not exported
 * live (no OTEL_EXPORTER_OTLP_ENDPOINT).
 *
 * @example
 * params._meta = { ...params._meta, ...traceMetaOf(meta.nodeRunId) };
 */
export function traceMetaOf(nodeRunId: string | undefined): Record<string, string> {
  const traceparent = nodeRunId ? traceparentOfNodeRun(nodeRunId) : undefined;
  return traceparent ? { [traceparentMetaKey]: traceparent } : {};
}

/** The host's span an incoming call names in its `_meta`; null when it names none (or not a valid one). */
export function traceParentOf(meta: Record<string, unknown> | undefined): RemoteParent | null {
  return parseTraceparent(meta?.[traceparentMetaKey]);
}
