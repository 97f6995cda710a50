import type { SpanRecord } from "./genai-spans";
import { switchboardResource, toReadableSpan } from "./readable-span";

/**
 * Spans as an OTLP/JSON ExportTraceServiceRequest (what an OTLP/HTTP
 * collector takes at /v1/traces with `Content-Type: application/json`),
 * serialized by the SDK's own transformer (loaded on first use).
 */
export async function otlpJson(spans: readonly SpanRecord[]): Promise<string> {
  const [{ JsonTraceSerializer }, resource] = await Promise.all([import("@opentelemetry/otlp-transformer"), switchboardResource()]);
  return new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans.map((span) => toReadableSpan(span, resource))));
}
