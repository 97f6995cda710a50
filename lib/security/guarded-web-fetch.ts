import { Readable } from "node:stream";
import type { BoundCredential } from "./credential-binding";
import { guardedFetch } from "./guarded-fetch";

export interface GuardedWebFetchOptions {
  /** The private origins that may be reached, exactly (SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS, a test's fixture server). */
  allowedOrigins?: readonly string[];
  /** Headers that carry a secret besides authorization and cookie (e.g. x-api-key): never sent on across origins. */
  sensitiveHeaders?: readonly string[];
  /** Credentials the requests may carry, each bound to its origins (see guardedFetch). */
  credentials?: readonly BoundCredential[];
}

/** Statuses whose response has no body; a web Response refuses one. */
const bodiless = new Set([204, 205, 304]);

/**
 * A WHATWG `fetch` over the platform's guarded HTTP client, for the AI SDK
 * providers (their `fetch` option): every request, redirects included, goes
 * through the same URL guard as a manifest call, so a model's base URL
 * cannot reach private, loopback or cloud-metadata addresses other than the
 * origins the operator listed. The guarded client's Node stream becomes the
 * web Response's body as it arrives, so streamed replies stay streamed.
 *
 * @example createAnthropic({ apiKey, fetch: guardedWebFetch({ allowedOrigins: [fixture.url] }) })
 */
export function guardedWebFetch(options: GuardedWebFetchOptions = {}): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : input instanceof URL ? input.toString() : String(input);
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const headers = Object.fromEntries(new Headers(init?.headers ?? request?.headers).entries());
    const body = await bodyText(init?.body ?? (request && request.body ? await request.text() : undefined));
    const signal = init?.signal ?? request?.signal ?? undefined;
    const answer = await guardedFetch(url, {
      method,
      headers,
      body,
      signal,
      allowedOrigins: options.allowedOrigins,
      sensitiveHeaders: options.sensitiveHeaders,
      credentials: options.credentials,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, String(item));
    }
    const empty = bodiless.has(answer.status) || method === "HEAD";
    if (empty) answer.body.resume();
    const response = new Response(empty ? null : (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>), {
      status: answer.status,
      statusText: answer.body.statusMessage ?? "", // the SDKs put it in their error messages
      headers: responseHeaders,
    });
    Object.defineProperty(response, "url", { value: answer.url }); // after redirects
    return response;
  };
}

/** The SDK providers send JSON text; bytes are decoded as UTF-8, anything else is refused. */
async function bodyText(body: BodyInit | null | undefined): Promise<string | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString("utf8");
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  if (body instanceof Blob) return body.text();
  throw new TypeError("guardedWebFetch sends text bodies only (a JSON request); streams and forms are not supported");
}
