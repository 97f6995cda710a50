import { redactHeaders } from "./redact-headers";

export interface ReceivedDelivery {
  /** The raw body, as read by readLimitedBody. */
  body: Buffer;
  contentType: string | null;
  headers: Headers;
  /** The URL the delivery was sent to; its query becomes `query`. */
  url: string | URL;
  /** From verifyDelivery; left out of the outputs when null. */
  deliveryId: string | null;
}

/** A webhook Start's outputs, which are its run's input. */
export interface WebhookStartInput {
  body: unknown;
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  deliveryId?: string;
}

/**
 * What a webhook Start puts out for a delivery: `body` parsed by its content
 * type (JSON types, `application/json` or `…+json`, when the body parses;
 * form-urlencoded as an object; otherwise the text; an empty body is null),
 * the headers with secrets redacted, the URL's query as an object (a name
 * given twice holds a list), and the delivery id when the sender gave one.
 */
export function webhookStartInput({ body, contentType, headers, url, deliveryId }: ReceivedDelivery): WebhookStartInput {
  const input: WebhookStartInput = { body: readBody(body, contentType), headers: redactHeaders(headers), query: paramsObject(new URL(url).searchParams) };
  if (deliveryId !== null) input.deliveryId = deliveryId;
  return input;
}

function readBody(body: Buffer, contentType: string | null): unknown {
  if (body.length === 0) return null;
  const text = body.toString("utf8");
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType === "application/json" || mediaType.endsWith("+json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (mediaType === "application/x-www-form-urlencoded") return paramsObject(new URLSearchParams(text));
  return text;
}

/** Built through a Map, so a name such as `__proto__` stays a plain property. */
function paramsObject(params: URLSearchParams): Record<string, string | string[]> {
  const values = new Map<string, string | string[]>();
  for (const [name, value] of params) {
    const earlier = values.get(name);
    values.set(name, earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value]);
  }
  return Object.fromEntries(values);
}
