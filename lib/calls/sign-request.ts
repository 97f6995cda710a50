import { createHash } from "node:crypto";
import aws4 from "aws4";
import { type BoundCredential, CredentialOriginError, guardedFetch } from "../security";
import { CallFailure } from "./call-failure";
import { readText } from "./read-reply";
import type { RenderedRequest, Signing } from "./render-request";

/** A token from a client-credentials exchange, kept until shortly before it expires. */
interface CachedToken {
  accessToken: string;
  /** Epoch ms after which the token is not used any more. */
  expiresAt: number;
}

/** OAuth2 tokens by endpoint, client and scope: shared by every call of the process, never written anywhere. */
export class TokenCache {
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<CachedToken>>();
  /** Tokens are refreshed this long before the expiry the server gave. */
  static readonly earlyMs = 30_000;

  /** The cached token for a key, or a new one from `fetchToken` (one fetch at a time per key). */
  async get(key: string, now: number, fetchToken: () => Promise<CachedToken>): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt > now) return cached.accessToken;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = fetchToken().finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const token = await pending;
    this.tokens.set(key, token);
    return token.accessToken;
  }

  /** Forgets a token the server refused, so the next call fetches a new one. */
  drop(key: string): void {
    this.tokens.delete(key);
  }
}

export const sharedTokenCache = new TokenCache();

export interface SigningContext {
  allowedOrigins?: readonly string[];
  /** The client secret goes to the token URL only when the credential is bound to its origin. */
  boundCredentials?: readonly BoundCredential[];
  signal?: AbortSignal;
  tokenCache?: TokenCache;
  /** The clock, in epoch ms; tests move it. */
  now?: () => number;
}

/**
 * Applies a send-time credential to a rendered request: an OAuth2 bearer
 * token (fetched through the URL guard, cached until it expires), or an AWS
 * Signature V4 over the final method, URL, headers and body.
 */
export async function signRequest(request: RenderedRequest, callName: string, context: SigningContext): Promise<void> {
  const signing = request.signing;
  if (!signing) return;
  const now = context.now?.() ?? Date.now();
  if (signing.scheme === "oauth2ClientCredentials") {
    const key = tokenKey(signing);
    const cache = context.tokenCache ?? sharedTokenCache;
    const token = await cache.get(key, now, () => fetchToken(signing, callName, context, now));
    request.headers.authorization = `Bearer ${token}`;
    return;
  }
  signAws(request, signing, now);
}

/** The cache key holds a hash of the secret, never the secret itself. */
export function tokenKey(signing: Extract<Signing, { scheme: "oauth2ClientCredentials" }>): string {
  const secret = createHash("sha256").update(signing.clientSecret).digest("hex").slice(0, 16);
  return [signing.tokenUrl.toString(), signing.clientId, secret, signing.scope ?? "", signing.audience ?? ""].join(" ");
}

async function fetchToken(
  signing: Extract<Signing, { scheme: "oauth2ClientCredentials" }>,
  callName: string,
  context: SigningContext,
  now: number,
): Promise<CachedToken> {
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (signing.scope) form.set("scope", signing.scope);
  if (signing.audience) form.set("audience", signing.audience);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (signing.authStyle === "basic") {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(signing.clientId)}:${encodeURIComponent(signing.clientSecret)}`).toString("base64")}`;
  } else {
    form.set("client_id", signing.clientId);
    form.set("client_secret", signing.clientSecret);
  }
  const fail = (reason: string) => new CallFailure("http-status", `call '${callName}': the OAuth2 token request to ${signing.tokenUrl.host} ${reason}`, callName);
  let text: string;
  let status: number;
  try {
    const answer = await guardedFetch(signing.tokenUrl.toString(), {
      method: "POST",
      headers,
      body: form.toString(),
      signal: context.signal ?? AbortSignal.timeout(30_000),
      allowedOrigins: context.allowedOrigins,
      credentials: context.boundCredentials,
    });
    status = answer.status;
    text = await readText(answer.body);
  } catch (error) {
    if (error instanceof CredentialOriginError) throw error;
    throw fail(`failed: ${(error as Error).message}`);
  }
  // The token endpoint's reply is never quoted: it may hold the token or echo the secret.
  if (status < 200 || status >= 300) throw fail(`was refused (${status}); check the client id and secret`);
  let reply: { access_token?: unknown; expires_in?: unknown };
  try {
    reply = JSON.parse(text) as typeof reply;
  } catch {
    throw fail("answered something that is not JSON");
  }
  if (typeof reply.access_token !== "string" || !reply.access_token) throw fail("gave no access_token");
  const seconds = Number(reply.expires_in);
  const lifetimeMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 3_600_000;
  return { accessToken: reply.access_token, expiresAt: now + Math.max(lifetimeMs - TokenCache.earlyMs, lifetimeMs / 2) };
}

function signAws(request: RenderedRequest, signing: Extract<Signing, { scheme: "awsSigV4" }>, now: number): void {
  const options: aws4.Request & { headers: Record<string, string> } = {
    host: request.url.host,
    path: `${request.url.pathname}${request.url.search}`,
    method: request.method,
    headers: { ...request.headers },
    service: signing.service,
    region: signing.region || regionFromHost(request.url.hostname) || "us-east-1",
    ...(request.body !== undefined ? { body: request.body } : {}),
  };
  // aws4 reads the time from X-Amz-Date when it is set: the clock stays ours (and the tests').
  options.headers["X-Amz-Date"] = new Date(now).toISOString().replace(/[:-]|\.\d{3}/g, "");
  delete options.headers["x-amz-date"];
  aws4.sign(options, {
    accessKeyId: signing.accessKeyId,
    secretAccessKey: signing.secretAccessKey,
    ...(signing.sessionToken ? { sessionToken: signing.sessionToken } : {}),
  });
  const signed: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers)) signed[name.toLowerCase()] = String(value);
  request.headers = signed;
}

/** `dynamodb.eu-west-1.amazonaws.com` → eu-west-1. */
function regionFromHost(host: string): string | undefined {
  return /\.([a-z]{2}(?:-gov)?-[a-z]+-\d)\.amazonaws\.com$/.exec(host)?.[1];
}

/** The longest a presigned link may live: AWS refuses more than seven days. */
export const maxPresignSeconds = 604_800;

/**
 * An AWS Signature V4 presigned URL (the signature in the query, as S3's
 * "query string authentication"): `X-Amz-Algorithm`, `X-Amz-Credential`,
 * `X-Amz-Date`, `X-Amz-Expires`, `X-Amz-SignedHeaders` (host only),
 * `X-Amz-Security-Token` for temporary credentials, then `X-Amz-Signature`.
 * The payload is unsigned, as S3 expects of a link. Makes no request.
 */
export function presignAws(url: URL, method: string, signing: Extract<Signing, { scheme: "awsSigV4" }>, now: number, expiresIn: number): URL {
  const query = new URLSearchParams(url.search);
  query.set("X-Amz-Date", new Date(now).toISOString().replace(/[:-]|\.\d{3}/g, ""));
  query.set("X-Amz-Expires", String(expiresIn));
  const options: aws4.Request & { headers: Record<string, string> } = {
    host: url.host,
    path: `${url.pathname}?${query.toString()}`,
    method,
    headers: {},
    service: signing.service,
    region: signing.region || regionFromHost(url.hostname) || "us-east-1",
    signQuery: true,
  };
  aws4.sign(options, {
    accessKeyId: signing.accessKeyId,
    secretAccessKey: signing.secretAccessKey,
    ...(signing.sessionToken ? { sessionToken: signing.sessionToken } : {}),
  });
  return new URL(`${url.protocol}//${url.host}${options.path}`);
}
