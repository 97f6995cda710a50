/** One span as a test receives it, decoded from OTLP/JSON or OTLP/protobuf. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** null for a root span. */
  parentSpanId: string | null;
  name: string;
  /** OTLP SpanKind: 1 internal, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  /** The resource's service.name. */
  serviceName: string | undefined;
}

/**
 * TEST SUPPORT: decodes an OTLP/protobuf ExportTraceServiceRequest (the
 * fields a test looks at) by reading the protobuf wire format directly,
 * so the receiver fixture needs no generated code. Field numbers are
 * those of opentelemetry/proto/trace/v1/trace.proto and common.proto.
 */
export function decodeProtobufTraces(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of messages(body, 1)) {
    const resource = messages(resourceSpans, 1)[0];
    const serviceName = resource ? (attributes(resource, 1)["service.name"] as string | undefined) : undefined;
    for (const scopeSpans of messages(resourceSpans, 2)) {
      for (const span of messages(scopeSpans, 2)) {
        const fields = readFields(span);
        const bytes = (number: number) => fields.find((field) => field.number === number)?.bytes;
        const status = bytes(15);
        const statusFields = status ? readFields(status) : [];
        const parent = bytes(4);
        spans.push({
          traceId: hex(bytes(1)),
          spanId: hex(bytes(2)),
          parentSpanId: parent && parent.length > 0 ? hex(parent) : null,
          name: text(bytes(5)),
          kind: Number(fields.find((field) => field.number === 6)?.varint ?? 0n),
          attributes: attributes(span, 9),
          status: {
            code: Number(statusFields.find((field) => field.number === 3)?.varint ?? 0n),
            ...(statusFields.some((field) => field.number === 2) ? { message: text(statusFields.find((field) => field.number === 2)?.bytes) } : {}),
          },
          serviceName,
        });
      }
    }
  }
  return spans;
}

interface Field {
  number: number;
  varint?: bigint;
  bytes?: Uint8Array;
  fixed?: Uint8Array;
}

function readFields(buffer: Uint8Array): Field[] {
  const fields: Field[] = [];
  let offset = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (offset >= buffer.length) throw new Error("truncated varint");
      const byte = buffer[offset++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (offset < buffer.length) {
    const key = Number(varint());
    const number = key >>> 3;
    switch (key & 7) {
      case 0:
        fields.push({ number, varint: varint() });
        break;
      case 1:
        fields.push({ number, fixed: buffer.subarray(offset, offset + 8) });
        offset += 8;
        break;
      case 2: {
        const length = Number(varint());
        fields.push({ number, bytes: buffer.subarray(offset, offset + length) });
        offset += length;
        break;
      }
      case 5:
        fields.push({ number, fixed: buffer.subarray(offset, offset + 4) });
        offset += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${key & 7}`);
    }
  }
  return fields;
}

function messages(buffer: Uint8Array, number: number): Uint8Array[] {
  return readFields(buffer).filter((field) => field.number === number && field.bytes).map((field) => field.bytes!);
}

/** KeyValue { string key = 1; AnyValue value = 2 } entries of field `number`. */
function attributes(buffer: Uint8Array, number: number): Record<string, unknown> {
  return Object.fromEntries(
    messages(buffer, number).map((entry) => {
      const fields = readFields(entry);
      const value = fields.find((field) => field.number === 2)?.bytes;
      return [text(fields.find((field) => field.number === 1)?.bytes), value ? anyValue(value) : undefined];
    }),
  );
}

/** AnyValue: 1 string, 2 bool, 3 int64, 4 double, 5 ArrayValue { repeated AnyValue values = 1 }. */
function anyValue(buffer: Uint8Array): unknown {
  const field = readFields(buffer)[0];
  if (!field) return undefined;
  switch (field.number) {
    case 1:
      return text(field.bytes);
    case 2:
      return field.varint === 1n;
    case 3:
      return Number(BigInt.asIntN(64, field.varint ?? 0n));
    case 4:
      return field.fixed ? new DataView(field.fixed.buffer, field.fixed.byteOffset, 8).getFloat64(0, true) : undefined;
    case 5:
      return messages(field.bytes ?? new Uint8Array(), 1).map(anyValue);
    default:
      return undefined;
  }
}

function hex(bytes: Uint8Array | undefined): string {
  return bytes ? Buffer.from(bytes).toString("hex") : "";
}

function text(bytes: Uint8Array | undefined): string {
  return bytes ? new TextDecoder().decode(bytes) : "";
}
