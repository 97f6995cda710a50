import { validateHeaderName, validateHeaderValue } from "node:http";
import { insertedText, renderValue, type Evaluator } from "../sandbox";
import type { Call } from "../manifest";
import { renderUrl } from "./render-url";
import { encodeBody } from "./encode-body";

export interface RenderedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Headers that carry a credential: never sent on when a redirect leaves the origin. */
  sensitiveHeaders: string[];
  /** A credential applied just before sending (it needs a token fetched, or the final bytes signed). */
  signing?: Signing;
}

/** The credential fields of the schemes applied at send time, already rendered (secrets: never logged). */
export type Signing =
  | { scheme: "oauth2ClientCredentials"; tokenUrl: URL; clientId: string; clientSecret: string; scope?: string; audience?: string; authStyle: "body" | "basic" }
  | { scheme: "awsSigV4"; service: string; region?: string; accessKeyId: string; secretAccessKey: string; sessionToken?: string };

/** What a call feature changes in one request: a page's parameter, a poll's URL. */
export interface RequestAdjustments {
  url?: string;
  method?: string;
  query?: Record<string, string>;
  bodyFields?: Record<string, unknown>;
  /** Replaces the call's body (a poll's own body). */
  body?: { value: unknown };
}

export type Credentials = Record<string, Record<string, string>>;

const methodsWithoutBody = new Set(["GET", "HEAD"]);

/**
 * Turns a call's templates into a concrete request. Credentials are in scope
 * only while rendering `credential` and `headers`, so no other part (the
 * body, the query) can copy a secret out. `renderedBody`, when given, is the
 * body already rendered.
 */
export async function renderRequest(
  call: Call,
  scope: Record<string, unknown>,
  evaluator: Evaluator,
  credentials: Credentials,
  renderedBody?: { value: unknown },
  adjust: RequestAdjustments = {},
): Promise<RenderedRequest> {
  const method = String(adjust.method ?? (await renderValue(call.method, scope, evaluator)) ?? "GET").toUpperCase();
  const urlTemplate = adjust.url ?? call.url;
  if (urlTemplate === undefined) throw new Error("the call has no url");
  const url = await renderUrl(urlTemplate, scope, evaluator);
  const query = call.query === undefined || adjust.url !== undefined ? {} : await renderValue(call.query, scope, evaluator);
  for (const [name, value] of Object.entries(isRecord(query) ? query : {})) {
    // A value that resolved to nothing is left out: APIs reject an empty filter rather than ignoring it.
    if (value === null || value === undefined || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, insertedText(item));
  }
  for (const [name, value] of Object.entries(adjust.query ?? {})) url.searchParams.set(name, value);
  const secretScope = { ...scope, credentials };
  const headers: Record<string, string> = { accept: call.transport === "sse" ? "text/event-stream" : "application/json, text/plain;q=0.9, */*;q=0.5" };
  const rendered = call.headers === undefined ? {} : await renderValue(call.headers, secretScope, evaluator);
  for (const [name, value] of Object.entries(isRecord(rendered) ? rendered : {})) {
    if (value !== null && value !== undefined && value !== "") headers[name.toLowerCase()] = insertedText(value);
  }
  const declared = isRecord(call.headers) ? call.headers : {};
  const sensitiveHeaders = Object.entries(declared)
    .filter(([, template]) => typeof template === "string" && template.includes("credentials."))
    .map(([name]) => name.toLowerCase());
  if (call.credential?.scheme === "apiKeyHeader") sensitiveHeaders.push(call.credential.header.toLowerCase());
  const signing = await applyCredential(call, secretScope, evaluator, headers, url);
  if (signing) sensitiveHeaders.push("authorization", "x-amz-security-token");
  for (const [name, value] of Object.entries(headers)) checkHeader(name, value);
  let body: string | Buffer | undefined;
  const given = adjust.body ?? renderedBody;
  if ((given || call.body !== undefined || adjust.bodyFields) && !methodsWithoutBody.has(method)) {
    // A body rendered earlier (an agent's running conversation) is sent as it is: the text in it
    // came from models and tools, and must never be read as templates.
    let value = given ? given.value : call.body === undefined ? {} : await renderValue(call.body, scope, evaluator);
    if (adjust.bodyFields) value = { ...(isRecord(value) ? value : {}), ...adjust.bodyFields };
    const encoded = encodeBody(value, call.encoding ?? "json");
    body = encoded.body;
    if (encoded.contentType) headers["content-type"] ??= encoded.contentType;
  }
  return { method, url, headers, body, sensitiveHeaders, ...(signing ? { signing } : {}) };
}

/** The awsSigV4 fields of a call's credential, rendered with the run's credentials in scope (for presigned links). */
export async function renderAwsSigning(call: Call, scope: Record<string, unknown>, evaluator: Evaluator, credentials: Credentials): Promise<Extract<Signing, { scheme: "awsSigV4" }> | undefined> {
  if (call.credential?.scheme !== "awsSigV4") return undefined;
  const signing = await applyCredential(call, { ...scope, credentials }, evaluator, {}, new URL("http://unused.invalid/"));
  return signing?.scheme === "awsSigV4" ? signing : undefined;
}

async function applyCredential(call: Call, scope: Record<string, unknown>, evaluator: Evaluator, headers: Record<string, string>, url: URL): Promise<Signing | undefined> {
  const credential = call.credential;
  if (!credential || credential.scheme === "none") return;
  const text = async (template: string) => insertedText(await renderValue(template, scope, evaluator));
  switch (credential.scheme) {
    case "bearer": {
      const token = await text(credential.token);
      if (token) headers.authorization = `Bearer ${token}`;
      return;
    }
    case "basic": {
      const username = await text(credential.username);
      if (username) headers.authorization = `Basic ${Buffer.from(`${username}:${await text(credential.password)}`).toString("base64")}`;
      return;
    }
    case "apiKeyHeader": {
      const value = await text(credential.value);
      if (value) headers[credential.header.toLowerCase()] = value;
      return;
    }
    case "apiKeyQuery": {
      const value = await text(credential.value);
      if (value) url.searchParams.set(credential.param, value);
      return;
    }
    case "oauth2ClientCredentials":
      return {
        scheme: credential.scheme,
        // The token endpoint obeys the same host rules as any call URL: a credential never picks it.
        tokenUrl: await renderUrl(credential.tokenUrl, scope, evaluator),
        clientId: await text(credential.clientId),
        clientSecret: await text(credential.clientSecret),
        ...(credential.scope ? { scope: credential.scope } : {}),
        ...(credential.audience ? { audience: credential.audience } : {}),
        authStyle: credential.authStyle ?? "body",
      };
    case "awsSigV4": {
      const first = defaultCredentialName(scope);
      const field = (template: string | undefined, name: string) => text(template ?? `{{ credentials.${first}.${name} }}`);
      const region = credential.region === undefined ? await field(undefined, "region") : await text(credential.region);
      const sessionToken = await field(credential.sessionToken, "sessionToken");
      return {
        scheme: credential.scheme,
        service: credential.service,
        ...(region ? { region } : {}),
        accessKeyId: await field(credential.accessKeyId, "accessKeyId"),
        secretAccessKey: await field(credential.secretAccessKey, "secretAccessKey"),
        ...(sessionToken ? { sessionToken } : {}),
      };
    }
  }
}

/** The one credential a call may mean when its awsSigV4 fields are left to their defaults. */
function defaultCredentialName(scope: Record<string, unknown>): string {
  const names = Object.keys((scope.credentials as Record<string, unknown> | undefined) ?? {});
  return names[0] ?? "aws";
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
