import { validateHeaderName, validateHeaderValue } from "node:http";
import { insertedText, renderValue, type Evaluator } from "../sandbox";
import type { Call } from "../manifest/schemas";
import { renderUrl } from "./render-url";

export interface RenderedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** Headers that carry a credential: never sent on when a redirect leaves the origin. */
  sensitiveHeaders: string[];
}

export type Credentials = Record<string, Record<string, string>>;

const methodsWithoutBody = new Set(["GET", "HEAD"]);

/**
 * Turns a call's templates into a concrete request. Credentials are in scope
 * only while rendering `credential` and `headers`, so no other part (the
 * body, the query) can copy a secret out. `renderedBody`, when given, is the
 * body already rendered.
 */
export function renderRequest(
  call: Call,
  scope: Record<string, unknown>,
  evaluator: Evaluator,
  credentials: Credentials,
  renderedBody?: { value: unknown },
): RenderedRequest {
  const method = String(renderValue(call.method, scope, evaluator) ?? "GET").toUpperCase();
  const url = renderUrl(call.url, scope);
  const query = call.query === undefined ? {} : renderValue(call.query, scope, evaluator);
  for (const [name, value] of Object.entries(isRecord(query) ? query : {})) {
    if (value === null || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, insertedText(item));
  }
  const secretScope = { ...scope, credentials };
  const headers: Record<string, string> = { accept: call.transport === "sse" ? "text/event-stream" : "application/json, text/plain;q=0.9, */*;q=0.5" };
  const rendered = call.headers === undefined ? {} : renderValue(call.headers, secretScope, evaluator);
  for (const [name, value] of Object.entries(isRecord(rendered) ? rendered : {})) {
    if (value !== null && value !== undefined && value !== "") headers[name.toLowerCase()] = insertedText(value);
  }
  const declared = isRecord(call.headers) ? call.headers : {};
  const sensitiveHeaders = Object.entries(declared)
    .filter(([, template]) => typeof template === "string" && template.includes("credentials."))
    .map(([name]) => name.toLowerCase());
  if (call.credential?.scheme === "apiKeyHeader") sensitiveHeaders.push(call.credential.header.toLowerCase());
  applyCredential(call, secretScope, evaluator, headers, url);
  for (const [name, value] of Object.entries(headers)) checkHeader(name, value);
  let body: string | undefined;
  if ((renderedBody || call.body !== undefined) && !methodsWithoutBody.has(method)) {
    // A body rendered earlier (an agent's running conversation) is sent as it is: the text in it
    // came from models and tools, and must never be read as templates.
    const value = renderedBody ? renderedBody.value : renderValue(call.body, scope, evaluator);
    body = typeof value === "string" ? value : JSON.stringify(value);
    headers["content-type"] ??= typeof value === "string" ? "text/plain; charset=utf-8" : "application/json";
  }
  return { method, url, headers, body, sensitiveHeaders };
}

function applyCredential(call: Call, scope: Record<string, unknown>, evaluator: Evaluator, headers: Record<string, string>, url: URL): void {
  const credential = call.credential;
  if (!credential || credential.scheme === "none") return;
  const text = (template: string) => insertedText(renderValue(template, scope, evaluator));
  switch (credential.scheme) {
    case "bearer": {
      const token = text(credential.token);
      if (token) headers.authorization = `Bearer ${token}`;
      return;
    }
    case "basic": {
      const username = text(credential.username);
      if (username) headers.authorization = `Basic ${Buffer.from(`${username}:${text(credential.password)}`).toString("base64")}`;
      return;
    }
    case "apiKeyHeader": {
      const value = text(credential.value);
      if (value) headers[credential.header.toLowerCase()] = value;
      return;
    }
    case "apiKeyQuery": {
      const value = text(credential.value);
      if (value) url.searchParams.set(credential.param, value);
      return;
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A header HTTP cannot carry (a line break, a character beyond Latin-1) is the manifest's or the caller's fault, not the network's. The value is never quoted: it may be a secret. */
function checkHeader(name: string, value: string): void {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
  } catch {
    throw new Error(`header '${name.slice(0, 100)}' cannot be sent: its name or value holds a character HTTP headers cannot carry (a line break, or one beyond Latin-1)`);
  }
}
