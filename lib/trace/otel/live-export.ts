import type { Resource } from "@opentelemetry/resources";
import type { SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { RunSink } from "../run-events";
import { switchboardResource, toReadableSpan } from "./readable-span";
import { SpanRecorder } from "./span-recorder";
import type { RemoteParent } from "./trace-context";
import { forgetNodeRunSpan, rememberNodeRunSpan } from "./node-run-spans";
import type { RunOrigin } from "../../run-model";

/** Where live spans go: one batching processor per process, from the standard OTEL_* variables. */
export interface OtelExport {
  processor: SpanProcessor;
  resource: Resource;
  captureContent: boolean;
}

type Env = Record<string, string | undefined>;

const holder = globalThis as typeof globalThis & { switchboardOtel?: { key: string; export: Promise<OtelExport | null> } };
const warned = new Set<string>();

/**
 * The live export, when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; null otherwise, or when
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER names no otlp exporter.
 * OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL picks http/protobuf (the default)
 * or http/json; headers, timeouts and batching come from the other
 * standard variables, read by the SDK. Content (arguments, results) is
 * sent only with SWITCHBOARD_OTEL_CAPTURE_CONTENT=true.
 *
 * The SDK's exporters, processor and resource detection are loaded here,
 * once an export is configured: every process imports the trace room, and
 * loading them at its start cost each one ~0.1 s of CPU it rarely needed.
 */
export async function otelExportFromEnv(env: Env = process.env): Promise<OtelExport | null> {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === "true") return null;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(",").map((name) => name.trim());
  if (exporters && exporters.length > 0 && !exporters.includes("otlp")) return null;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf";
  const captureContent = env.SWITCHBOARD_OTEL_CAPTURE_CONTENT === "true";
  const key = `${endpoint}|${protocol}|${captureContent}`;
  if (holder.switchboardOtel?.key === key) return holder.switchboardOtel.export;
  const created = createExport(protocol, tracesUrl(env), captureContent);
  const previous = holder.switchboardOtel?.export;
  holder.switchboardOtel = { key, export: created };
  void previous?.then((replaced) => replaced?.processor.shutdown()).catch(() => undefined);
  return created;
}

/** The export for these settings; null, with a warning, when the SDK cannot make one (a run is never stopped by its telemetry). */
async function createExport(protocol: string, url: string, captureContent: boolean): Promise<OtelExport | null> {
  try {
    const exporter = await exporterFor(protocol, url);
    if (!exporter) return null;
    const [{ BatchSpanProcessor }, resource] = await Promise.all([import("@opentelemetry/sdk-trace-base"), switchboardResource()]);
    return { processor: new BatchSpanProcessor(exporter), resource, captureContent };
  } catch (error) {
    console.warn(`OpenTelemetry: the export could not be set up (${(error as Error).message}); no spans are sent.`);
    return null;
  }
}

/** The signal-specific variable is the URL as is; the general one is a base that gets /v1/traces (the OTLP exporter spec). */
function tracesUrl(env: Env): string {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return `${(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").replace(/\/+$/, "")}/v1/traces`;
}

async function exporterFor(protocol: string, url: string): Promise<SpanExporter | null> {
  if (protocol === "http/protobuf") return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter({ url });
  if (protocol === "http/json") return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter({ url });
  if (!warned.has(protocol)) {
    warned.add(protocol);
    console.warn(`OpenTelemetry: the protocol "${protocol}" is not supported; set OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json. No spans are sent.`);
  }
  return null;
}

/** Sends what the live export holds (before a command line exits, or in a test). */
export async function flushOtelExport(): Promise<void> {
  await (await holder.switchboardOtel?.export)?.processor.forceFlush();
}

export interface OtelSinkOptions {
  workflowName?: string | null;
  origin?: RunOrigin | null;
  /** The host span from a `traceparent` on the call that started the run. */
  remoteParent?: RemoteParent | null;
}

/**
 * A RunSink that also exports the run live as OpenTelemetry spans: each
 * event goes to `sink` first (so the database holds it), then becomes a
 * span as its step ends. The sink itself is returned when no export is
 * configured (`target` null), so the wiring costs nothing then. The
 * engine redacts its events before any sink sees them, so spans carry no
 * secret.
 *
 * @example
 * const sink = withOtelExport(new PrismaRunSink(prisma(), { document }), { workflowName: workflow.name }, await otelExportFromEnv());
 */
export function withOtelExport(sink: RunSink, options: OtelSinkOptions, target: OtelExport | null): RunSink {
  if (!target) return sink;
  const recorder = new SpanRecorder({
    emit: (span) => target.processor.onEnd(toReadableSpan(span, target.resource)),
    captureContent: target.captureContent,
    workflowName: options.workflowName,
    origin: options.origin,
    remoteParent: options.remoteParent,
  });
  const observe = (what: () => void) => {
    try {
      what();
    } catch (error) {
      console.warn(`OpenTelemetry: ${(error as Error).message}`);
    }
  };
  return {
    runStart: async (event) => (await sink.runStart(event), observe(() => recorder.runStart(event))),
    nodeStart: async (event) => {
      await sink.nodeStart(event);
      observe(() => {
        recorder.nodeStart(event);
        rememberNodeRunSpan(event.nodeRunId, recorder.traceId);
      });
    },
    toolCall: async (row) => (await sink.toolCall(row), observe(() => recorder.toolCall(row))),
    nodeEnd: async (event) => {
      await sink.nodeEnd(event);
      observe(() => {
        forgetNodeRunSpan(event.nodeRunId);
        recorder.nodeEnd(event);
      });
    },
    modelTurn: async (turn) => (await sink.modelTurn?.(turn), observe(() => recorder.modelTurn(turn.runId, turn))),
    taintRecord: async (record) => (await sink.taintRecord?.(record), observe(() => recorder.taintRecord(record))),
    runEnd: async (event) => (await sink.runEnd(event), observe(() => recorder.runEnd(event))),
  };
}
