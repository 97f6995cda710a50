import { lookup } from "node:dns/promises";
import { refusedAddressReason, refusedHostName } from "./address-policy";

export interface UrlGuardOptions {
  /**
   * The private origins that may be reached, exactly (scheme, host and port):
   * SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS, or a test's fixture server
   * (`http://127.0.0.1:41234`). Nothing else private is ever let through.
   */
  allowedOrigins?: readonly string[];
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** True when `url`'s origin is one of the listed private origins. */
export function originListed(url: URL, allowedOrigins: readonly string[] | undefined): boolean {
  return allowedOrigins?.includes(url.origin) ?? false;
}

/** The host as an address when it is one (`[::1]` → `::1`), else null. */
export function hostAddress(url: URL): string | null {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return /^[\d.]+$/.test(host) || host.includes(":") ? host : null;
}

/**
 * Checks a URL before anything connects: http or https only, and a host that
 * is not, and does not resolve to, a private, loopback, link-local,
 * unspecified or metadata address. Numeric forms (decimal, octal, hex IPv4)
 * are normalized by the URL parser first. The HTTP client checks the address
 * it actually connects to again, so a name that re-resolves cannot slip by.
 */
export async function checkUrl(raw: string | URL, options: UrlGuardOptions = {}): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = raw instanceof URL ? raw : new URL(raw);
  } catch {
    return { ok: false, reason: `'${String(raw).slice(0, 200)}' is not a valid URL` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: `only http and https URLs are allowed, not ${url.protocol}` };
  if (url.username || url.password) return { ok: false, reason: "URLs may not carry a user name or password; use a credential" };
  if (originListed(url, options.allowedOrigins)) return { ok: true, url };
  if (refusedHostName(url.hostname)) return { ok: false, reason: `${url.hostname} is this machine or a metadata service` };
  const literal = hostAddress(url);
  if (literal) {
    const reason = refusedAddressReason(literal);
    return reason ? { ok: false, reason: `${url.hostname} is a ${reason} address` } : { ok: true, url };
  }
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(url.hostname, { all: true, verbatim: true });
  } catch {
    return { ok: false, reason: `${url.hostname} does not resolve` };
  }
  for (const { address } of addresses) {
    const reason = refusedAddressReason(address);
    if (reason) return { ok: false, reason: `${url.hostname} resolves to ${address}, a ${reason} address` };
  }
  return { ok: true, url };
}
