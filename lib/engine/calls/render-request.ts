import { insertedText, renderValue, type Evaluator } from "../../sandbox";
import type { Call } from "../../manifest/schemas";
import { renderUrl } from "./render-url";

export interface RenderedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

export type Credentials = Record<string, Record<string, string>>;

const methodsWithoutBody = new Set(["GET", "HEAD"]);

/**
 * Turns a call's templates into a concrete request. Credentials are in scope
 * only while rendering `credential` and `headers`, so no other part (the
 * body, the query) can copy a secret out.
 */
export function renderRequest(call: Call, scope: Record<string, unknown>, evaluator: Evaluator, credentials: Credentials): RenderedRequest {
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
  applyCredential(call, secretScope, evaluator, headers, url);
  let body: string | undefined;
  if (call.body !== undefined && !methodsWithoutBody.has(method)) {
    const value = renderValue(call.body, scope, evaluator);
    body = typeof value === "string" ? value : JSON.stringify(value);
    headers["content-type"] ??= typeof value === "string" ? "text/plain; charset=utf-8" : "application/json";
  }
  return { method, url, headers, body };
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
