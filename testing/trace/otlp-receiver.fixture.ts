import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeProtobufTraces, type ReceivedSpan } from "./otlp-protobuf-decode.fixture";

export type { ReceivedSpan };

/**
 * TEST DOUBLE: an OTLP/HTTP trace receiver on 127.0.0.1 (what Jaeger,
 * Phoenix or a collector would be), decoding what it receives at
 * /v1/traces — OTLP/JSON or OTLP/protobuf — into plain spans, so a test
 * can hold the span tree of a run. Close it in afterAll.
 */

export interface OtlpReceiver {
  /** The base URL to set as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  /** Content types of the requests received, in order. */
  contentTypes: string[];
  /** Resolves once `count` spans have arrived (they come in batches). */
  waitForSpans(count: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const waiters: Array<{ count: number; resolve: (spans: ReceivedSpan[]) => void }> = [];
  const server = createServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/v1/traces") {
      response.writeHead(404).end();
      return;
    }
    const body = await readBody(request);
    const type = request.headers["content-type"] ?? "";
    contentTypes.push(type);
    try {
      spans.push(...(type.includes("json") ? decodeJsonTraces(JSON.parse(body.toString("utf8"))) : decodeProtobufTraces(body)));
    } catch (error) {
      response.writeHead(400, { "content-type": "text/plain" }).end(`cannot decode: ${(error as Error).message}`);
      return;
    }
    response.writeHead(200, { "content-type": type.includes("json") ? "application/json" : "application/x-protobuf" }).end(type.includes("json") ? "{}" : undefined);
    for (const waiter of [...waiters]) {
      if (spans.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve([...spans]);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitForSpans: (count) => (spans.length >= count ? Promise.resolve([...spans]) : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

type JsonAnyValue = { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number; arrayValue?: { values?: JsonAnyValue[] } };
type JsonKeyValue = { key: string; value: JsonAnyValue };
interface JsonTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind?: number; attributes?: JsonKeyValue[]; status?: { code?: number; message?: string } }> }>;
  }>;
}

/** OTLP/JSON (ids as hex, per the OTLP spec's JSON mapping) → spans. */
export function decodeJsonTraces(request: JsonTraces): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = jsonAttributes(resourceSpans.resource?.attributes)["service.name"] as string | undefined;
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ? span.parentSpanId : null,
        name: span.name,
        kind: span.kind ?? 0,
        attributes: jsonAttributes(span.attributes),
        status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
        serviceName,
      })),
    );
  });
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, jsonValue(entry.value)]));
}

function jsonValue(value: JsonAnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}
