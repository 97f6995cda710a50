import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { refusedAddressReason } from "./address-policy";
import { assertCredentialOrigins, type BoundCredential } from "./credential-binding";
import { checkUrl, originListed, type UrlGuardOptions } from "./url-guard";

export const maxRedirects = 5;

export interface GuardedRequest extends UrlGuardOptions {
  method: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Headers that carry a secret (besides authorization and cookie): dropped when a redirect leaves the origin. */
  sensitiveHeaders?: readonly string[];
  /** Credentials the request may carry, each bound to its origins: a hop that would carry one elsewhere is refused before connecting. */
  credentials?: readonly BoundCredential[];
}

/** Always secret: never sent on to another origin. */
const credentialHeaders = ["authorization", "proxy-authorization", "cookie"];

// Keep-alive pools, apart for guarded requests and those to a listed private origin, so a socket opened
// to a private address is never reused by a guarded request to the same name.
const agents = {
  guarded: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
  private: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
};

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: string;
  body: IncomingMessage;
}

/** Refused before or while connecting: the request never reached the host. */
export class UrlRefusedError extends Error {
  readonly code = "url-refused";
  constructor(message: string) {
    super(message);
    this.name = "UrlRefusedError";
  }
}

/**
 * A DNS lookup that refuses private addresses at the moment of connecting,
 * so a host that resolved to a public address when checked cannot be
 * re-pointed at a private one (DNS rebinding) before the socket opens.
 */
function guardedLookup(originListed: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as LookupAddress[];
      if (!originListed) {
        for (const { address } of list) {
          const reason = refusedAddressReason(address);
          if (reason) return callback(new UrlRefusedError(`${hostname} resolves to ${address}, a ${reason} address`), "", 0);
        }
      }
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/**
 * An HTTP request where every hop is guarded: the URL is checked before
 * connecting, the address actually connected to is checked again, and each
 * redirect (at most 5) goes through the same checks. Only http and https.
 * A hop that would carry a bound credential to an origin it is not bound to
 * throws CredentialOriginError before its socket opens.
 */
export async function guardedFetch(url: string, request: GuardedRequest): Promise<GuardedResponse> {
  let current = url;
  let method = request.method.toUpperCase();
  let body = request.body;
  let headers = { ...request.headers };
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const verdict = await checkUrl(current, request);
    if (!verdict.ok) throw new UrlRefusedError(verdict.reason);
    assertCredentialOrigins(verdict.url, { headers, body }, request.credentials ?? []);
    const response = await send(verdict.url, { ...request, method, body, headers });
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || response.status === 304 || !location) {
      return { status: response.status, headers: response.headers, url: current, body: response };
    }
    response.resume();
    const next = new URL(location, current);
    if (next.origin !== new URL(current).origin) {
      // As browsers do: credentials go to the origin they were meant for, never on to another.
      const secret = new Set([...credentialHeaders, ...(request.sensitiveHeaders ?? []).map((name) => name.toLowerCase())]);
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !secret.has(name.toLowerCase())));
    }
    current = next.toString();
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "content-type"));
    }
  }
  throw new UrlRefusedError(`more than ${maxRedirects} redirects`);
}

function send(url: URL, request: GuardedRequest): Promise<IncomingMessage & { status: number }> {
  const client = url.protocol === "https:" ? https : http;
  const listed = originListed(url, request.allowedOrigins);
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      {
        method: request.method,
        headers: { ...request.headers, ...(request.body !== undefined ? { "content-length": Buffer.byteLength(request.body).toString() } : {}) },
        // Only this hop's origin counts: a listed origin that redirects elsewhere meets the full guard there.
        lookup: guardedLookup(listed),
        agent: (listed ? agents.private : agents.guarded)[url.protocol === "https:" ? "https" : "http"],
        signal: request.signal,
      },
      (response) => resolve(Object.assign(response, { status: response.statusCode ?? 0 })),
    );
    outgoing.on("error", reject);
    if (request.body !== undefined) outgoing.write(request.body);
    outgoing.end();
  });
}
