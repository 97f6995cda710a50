/**
 * A credential on its way out, with where it may go: the values that would
 * betray it on the wire and the origins it is bound to. The engine builds
 * one per credential a node uses; the guarded fetch checks every request
 * (every redirect hop too) against them before a byte is sent.
 */
export interface BoundCredential {
  /** How people name it, e.g. `openai-agent credential 'openai'`. */
  label: string;
  values: readonly string[];
  /** Origins (`https://api.openai.com`) the credential may be sent to. */
  origins: readonly string[];
}

/** A request that would carry a credential to an origin it is not bound to: refused before connecting. */
export class CredentialOriginError extends Error {
  readonly code = "credential-origin";
  constructor(
    readonly credential: string,
    readonly origin: string,
    readonly allowed: readonly string[],
  ) {
    super(
      `refused to send ${credential} to ${origin}: it may only go to ${allowed.length ? allowed.join(", ") : "no origin yet"}. ` +
        `If ${origin} is meant to have it, add the origin to the credential on the Credentials page (or have the workflow's owner approve it).`,
    );
    this.name = "CredentialOriginError";
  }
}

/** Values shorter than this are not looked for: they would match by chance (a port, a flag). */
const shortest = 4;

/**
 * Throws CredentialOriginError when the request to `url` carries the value
 * of a bound credential — in a header (a Basic header decoded too), the URL
 * or the body — and `url`'s origin is not one the credential may go to.
 * Looking for the values rather than for the headers a call declared means
 * no template, base URL override or redirect can carry one past the check.
 *
 *   assertCredentialOrigins(new URL("http://127.0.0.1:9/v1"), { headers: { authorization: "Bearer sk-1" } }, [{ label: "openai", values: ["sk-1"], origins: ["https://api.openai.com"] }]) // throws
 */
export function assertCredentialOrigins(url: URL, request: { headers?: Readonly<Record<string, string>>; body?: string | Buffer }, bound: readonly BoundCredential[]): void {
  if (!bound.length) return;
  const origin = url.origin;
  const carried = outgoingText(url, request);
  for (const credential of bound) {
    if (credential.origins.includes(origin)) continue;
    const forms = credential.values.filter((value) => value.length >= shortest).flatMap((value) => [value, encodeURIComponent(value)]);
    if (forms.some((form) => carried.some((text) => text.includes(form)))) throw new CredentialOriginError(credential.label, origin, credential.origins);
  }
}

function outgoingText(url: URL, request: { headers?: Readonly<Record<string, string>>; body?: string | Buffer }): string[] {
  const texts = [url.toString(), decodeSafely(url.toString())];
  for (const value of Object.values(request.headers ?? {})) {
    texts.push(value);
    const basic = value.match(/^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i);
    if (basic) texts.push(Buffer.from(basic[1], "base64").toString("utf8"));
  }
  if (request.body !== undefined) texts.push(typeof request.body === "string" ? request.body : request.body.toString("utf8"));
  return texts;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
