import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from "@opentelemetry/api";
import type { Resource } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { SpanRecord } from "./genai-spans";

/** Who made the spans, as the instrumentation scope names it. */
export const instrumentationScope = { name: "switchboard", version: "0.1.0" };

/**
 * The service the spans come from: `service.name` switchboard unless
 * OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise (the
 * standard variables, read by the SDK's env detector). The SDK's
 * resources are loaded on first use, as its exporters are (live-export.ts).
 */
export async function switchboardResource(): Promise<Resource> {
  const { envDetector, detectResources, resourceFromAttributes } = await import("@opentelemetry/resources");
  return resourceFromAttributes({ "service.name": "switchboard" }).merge(detectResources({ detectors: [envDetector] }));
}

/** A span record as the SDK's ReadableSpan, for its exporters and serializers. */
export function toReadableSpan(span: SpanRecord, resource: Resource): ReadableSpan {
  const startTime = hrTime(Date.parse(span.startedAt));
  const endMs = Math.max(Date.parse(span.endedAt), Date.parse(span.startedAt));
  const endTime = hrTime(endMs);
  const spanContext = { traceId: span.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  return {
    name: span.name,
    kind: span.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => spanContext,
    parentSpanContext: span.parentSpanId ? { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: span.parentIsRemote } : undefined,
    startTime,
    endTime,
    duration: hrTime(endMs - Date.parse(span.startedAt)),
    status: span.status.code === "error" ? { code: SpanStatusCode.ERROR, message: span.status.message } : { code: span.status.code === "ok" ? SpanStatusCode.OK : SpanStatusCode.UNSET },
    attributes: span.attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}
