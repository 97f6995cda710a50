import type { Call } from "../manifest";
import { insertedText, renderValue, type Evaluator } from "../sandbox";
import { type BoundCredential, CredentialOriginError, guardedFetch, UrlRefusedError } from "../security";
import { CallFailure } from "./call-failure";
import { parseJsonReply, readBytes, readStream, readText, ReplyError } from "./read-reply";
import { parseXmlReply } from "./parse-xml";
import { unmarshallReply } from "./dynamodb-json";
import { type Credentials, type RenderedRequest, type RequestAdjustments, renderRequest } from "./render-request";
import { signRequest, type TokenCache, tokenKey, sharedTokenCache } from "./sign-request";

export interface CallContext {
  evaluator: Evaluator;
  /** Credential values by name and field, resolved on the server for this run only. */
  credentials?: Credentials;
  /** The same credentials with the origins each may be sent to; the guarded fetch refuses any other destination. */
  boundCredentials?: readonly BoundCredential[];
  /** The private origins that may be reached, exactly (SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS, a node test's fixture server). */
  allowedOrigins?: readonly string[];
  /** Cancels the call (a cancelled run, a node that stops). */
  signal?: AbortSignal;
  /** Receives each event of a streamed reply as it arrives. */
  onEvent?: (event: unknown) => void;
  /** Waits between retries and polls; tests may replace it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** OAuth2 client-credentials tokens; default: one cache for the process. */
  tokenCache?: TokenCache;
  /** The clock in epoch ms (token expiry, SigV4 dates, poll deadlines); tests may replace it. */
  now?: () => number;
  /** A node's saved state (`state: save` / `read`), kept by the caller between runs. */
  state?: { get(): unknown; set(value: unknown): void };
  /** The run's loops across nodes by key (`loop: open / read / advance`), kept by the caller for the run. */
  loops?: Map<string, LoopState>;
}

/** One loop across nodes: its items, where it is, and what its passes collected. */
export interface LoopState {
  items: unknown[];
  index: number;
  collected: unknown[];
}

export interface CallReply {
  status: number;
  /** The parsed reply: JSON, text, or the list of streamed events. */
  response: unknown;
  headers: Record<string, string>;
}

/** The longest a call may take, whatever its manifest says (the schema allows no more either). */
export const maxCallTimeoutMs = 600_000;

/** The longest wait between two tries, whatever the policy or Retry-After says. */
export const maxRetryWaitMs = 30_000;

/** Waits, but not past a cancellation. */
export const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });

/**
 * Makes one call of a manifest: renders its templates, sends it through the
 * URL guard, reads the reply by its transport, retries what its `retry`
 * allows, and applies `okOn` and `error`. Every failure is a CallFailure
 * whose message is safe to hand to a model.
 */
export async function executeCall(
  call: Call,
  scope: Record<string, unknown>,
  context: CallContext,
  renderedBody?: { value: unknown },
  adjust?: RequestAdjustments,
): Promise<CallReply> {
  let request: RenderedRequest;
  let timeoutMs: number;
  try {
    request = await renderRequest(call, scope, context.evaluator, context.credentials ?? {}, renderedBody, adjust);
    timeoutMs = Number(await renderValue(call.timeoutMs, scope, context.evaluator));
  } catch (error) {
    throw new CallFailure("template", `call '${call.name}' could not be prepared: ${(error as Error).message}`, call.name);
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) timeoutMs = 30_000;
  // A timer longer than 2^31-1 ms fires at once in Node; a call is never allowed more than 10 minutes anyway.
  timeoutMs = Math.min(timeoutMs, maxCallTimeoutMs);
  const attempts = call.retry?.attempts ?? 1;
  const retryOn = new Set(call.retry?.on ?? []);
  const sleep = context.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= attempts;
    let reply: CallReply;
    try {
      reply = await sendOnce(call, request, timeoutMs, context);
    } catch (error) {
      const failure = error instanceof CallFailure ? error : new CallFailure("network", `call '${call.name}' to ${request.url.host} failed: ${(error as Error).message}`, call.name);
      if (last || failure.code === "url-refused" || failure.code === "credential-origin" || context.signal?.aborted) throw failure;
      await sleep(backoff(call, attempt), context.signal);
      continue;
    }
    if (reply.status === 401 && request.signing?.scheme === "oauth2ClientCredentials") (context.tokenCache ?? sharedTokenCache).drop(tokenKey(request.signing));
    const ok = (reply.status >= 200 && reply.status < 300) || (call.okOn ?? []).includes(reply.status);
    if (!ok && !last && retryOn.has(reply.status)) {
      await sleep(backoff(call, attempt, reply.headers["retry-after"]), context.signal);
      if (context.signal?.aborted) throw new CallFailure("network", `call '${call.name}' was cancelled`, call.name);
      continue;
    }
    await checkErrorWhen(call, scope, reply, context.evaluator);
    if (!ok) throw new CallFailure("http-status", `call '${call.name}': ${request.url.host} answered ${reply.status}${detail(reply.response)}`, call.name, reply.status);
    return reply;
  }
}

async function sendOnce(call: Call, rendered: RenderedRequest, timeoutMs: number, context: CallContext): Promise<CallReply> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = context.signal ? AbortSignal.any([timeout, context.signal]) : timeout;
  // Each try is signed afresh (a SigV4 signature carries the time; a token may have been refreshed).
  const request = { ...rendered, headers: { ...rendered.headers } };
  try {
    await signRequest(request, call.name, { ...context, signal });
    const answer = await guardedFetch(request.url.toString(), {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal,
      allowedOrigins: context.allowedOrigins,
      sensitiveHeaders: request.sensitiveHeaders,
      credentials: context.boundCredentials,
    });
    const headers = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value ?? "")]));
    const streamed = (call.transport === "sse" || call.transport === "ndjson") && answer.status >= 200 && answer.status < 300;
    let response: unknown;
    if (streamed) {
      response = await readStream(answer.body, call.transport as "sse" | "ndjson", { terminator: call.terminator, onEvent: context.onEvent });
    } else if (call.transport === "headers") {
      answer.body.resume();
      response = headers;
    } else if (call.transport === "binary" && answer.status >= 200 && answer.status < 300) {
      const bytes = await readBytes(answer.body);
      response = { base64: bytes.toString("base64"), contentType: headers["content-type"] ?? "application/octet-stream", bytes: bytes.length };
    } else {
      const text = await readText(answer.body);
      if (call.transport === "xml" && /xml|^$/.test(headers["content-type"] ?? "") && text.trim().startsWith("<")) {
        response = parseXmlReply(text);
      } else {
        const looksJson = call.transport !== "text" && call.transport !== "xml" && (call.transport === "json" || /json/.test(headers["content-type"] ?? ""));
        response = looksJson ? parseReplyOrText(text, answer.status) : text;
        if (call.encoding === "dynamodbJson" && answer.status >= 200 && answer.status < 300) response = unmarshallReply(response);
      }
    }
    return { status: answer.status, response, headers };
  } catch (error) {
    if (error instanceof CredentialOriginError) throw new CallFailure("credential-origin", `call '${call.name}' was not sent: ${error.message}`, call.name);
    if (error instanceof UrlRefusedError) throw new CallFailure("url-refused", `call '${call.name}' was refused: ${error.message}`, call.name);
    if (timeout.aborted) throw new CallFailure("timeout", `call '${call.name}' to ${request.url.host} timed out after ${timeoutMs} ms`, call.name);
    if (context.signal?.aborted) throw new CallFailure("network", `call '${call.name}' was cancelled`, call.name);
    if (error instanceof ReplyError) throw new CallFailure("invalid-reply", `call '${call.name}': ${error.message}`, call.name);
    if (error instanceof CallFailure) throw error;
    throw error;
  }
}

/** Error replies are often HTML or plain text even from JSON APIs: keep them as text. */
function parseReplyOrText(text: string, status: number): unknown {
  if (status >= 200 && status < 300) return parseJsonReply(text);
  try {
    return parseJsonReply(text);
  } catch {
    return text;
  }
}

async function checkErrorWhen(call: Call, scope: Record<string, unknown>, reply: CallReply, evaluator: Evaluator): Promise<void> {
  if (!call.error) return;
  const replyScope = { ...scope, response: reply.response, status: reply.status };
  let matched: unknown;
  let message: string;
  try {
    matched = await renderValue(call.error.when, replyScope, evaluator);
    if (!matched) return;
    message = insertedText(await renderValue(call.error.message, replyScope, evaluator));
  } catch (error) {
    throw new CallFailure("template", `call '${call.name}': its error check failed: ${(error as Error).message}`, call.name, reply.status);
  }
  throw new CallFailure("error-when", message || `call '${call.name}' failed`, call.name, reply.status);
}

function backoff(call: Call, attempt: number, retryAfter?: string): number {
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds > 0) return Math.min(seconds * 1000, maxRetryWaitMs);
  const delay = call.retry?.delayMs ?? 500;
  return Math.min(call.retry?.backoff === "fixed" ? delay : delay * 2 ** (attempt - 1), maxRetryWaitMs);
}

/** A short reason from an error reply, for the failure message. */
function detail(response: unknown): string {
  const record = response as { error?: unknown; message?: unknown } | null;
  const candidate =
    typeof record === "string" ? record : typeof record?.error === "object" && record?.error ? (record.error as { message?: unknown }).message : (record?.message ?? record?.error);
  const text = typeof candidate === "string" ? candidate.replace(/\s+/g, " ").trim() : "";
  return text ? `: ${text.slice(0, 300)}` : "";
}
