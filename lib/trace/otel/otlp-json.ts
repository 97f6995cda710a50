import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { SpanRecord } from "./genai-spans";
import { switchboardResource, toReadableSpan } from "./readable-span";

/**
 * Spans as an OTLP/JSON ExportTraceServiceRequest (what an OTLP/HTTP
 * collector takes at /v1/traces with `Content-Type: application/json`),
 * serialized by the SDK's own transformer.
 */
export function otlpJson(spans: readonly SpanRecord[]): string {
  const resource = switchboardResource();
  return new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans.map((span) => toReadableSpan(span, resource))));
}
