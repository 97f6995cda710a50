import { marshallRequest } from "./dynamodb-json";

/** How a call's body goes on the wire (`encoding` in a call). */
export type BodyEncoding = "json" | "binary" | "ndjson" | "form" | "multipart" | "dynamodbJson";

/** A binary value as calls pass it around: a binary reply, or a file given to a multipart body. */
export interface BinaryValue {
  base64: string;
  contentType?: string;
  filename?: string;
}

export function isBinaryValue(value: unknown): value is BinaryValue {
  return value !== null && typeof value === "object" && typeof (value as { base64?: unknown }).base64 === "string";
}

/**
 * Encodes a rendered body. json: a string is sent as text, anything else as
 * JSON; binary: a base64 string or a binary value, sent as bytes; ndjson: a
 * list, one JSON value a line; form: a map, url-encoded; multipart: a map
 * whose binary values are files; dynamodbJson: JSON whose attribute values
 * carry DynamoDB's type tags.
 *
 * @example encodeBody([{ a: 1 }, { a: 2 }], "ndjson") // { body: '{"a":1}\n{"a":2}\n', contentType: "application/x-ndjson" }
 */
export function encodeBody(value: unknown, encoding: BodyEncoding): { body: string | Buffer; contentType?: string } {
  switch (encoding) {
    case "binary": {
      if (isBinaryValue(value)) return { body: decodeBase64(value.base64), contentType: value.contentType || "application/octet-stream" };
      if (typeof value === "string") return { body: decodeBase64(value.includes(",") && value.startsWith("data:") ? value.slice(value.indexOf(",") + 1) : value), contentType: "application/octet-stream" };
      throw new Error("a binary body must be a base64 string or a binary value { base64, contentType }");
    }
    case "ndjson": {
      if (!Array.isArray(value)) throw new Error("an ndjson body must be a list");
      return { body: value.map((item) => `${JSON.stringify(item)}\n`).join(""), contentType: "application/x-ndjson" };
    }
    case "form": {
      if (!isRecord(value)) throw new Error("a form body must be a map");
      const form = new URLSearchParams();
      for (const [name, item] of Object.entries(value)) if (item !== undefined && item !== null) form.append(name, typeof item === "string" ? item : JSON.stringify(item));
      return { body: form.toString(), contentType: "application/x-www-form-urlencoded" };
    }
    case "multipart":
      return multipart(value);
    case "dynamodbJson":
      return { body: JSON.stringify(marshallRequest(value)), contentType: "application/x-amz-json-1.0" };
    default:
      return typeof value === "string" ? { body: value, contentType: "text/plain; charset=utf-8" } : { body: JSON.stringify(value), contentType: "application/json" };
  }
}

function multipart(value: unknown): { body: Buffer; contentType: string } {
  if (!isRecord(value)) throw new Error("a multipart body must be a map");
  const boundary = `----switchboard${crypto.randomUUID().replace(/-/g, "")}`;
  const parts: Buffer[] = [];
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    const field = name.replace(/["\r\n]/g, "_");
    if (isBinaryValue(item)) {
      const filename = (item.filename ?? "file").replace(/["\r\n]/g, "_");
      parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${filename}"\r\ncontent-type: ${item.contentType || "application/octet-stream"}\r\n\r\n`));
      parts.push(decodeBase64(item.base64), Buffer.from("\r\n"));
    } else {
      parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"\r\n\r\n${typeof item === "string" ? item : JSON.stringify(item)}\r\n`));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function decodeBase64(text: string): Buffer {
  const clean = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw new Error("the binary body is not base64");
  return Buffer.from(clean, "base64");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
