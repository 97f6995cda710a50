/**
 * Which Host headers the app answers. A page on another site can make the
 * browser send requests to 127.0.0.1 under its own name (DNS rebinding);
 * answering only the names the app is really reached by closes that door.
 * Loopback names are always allowed; SWITCHBOARD_ALLOWED_HOSTS adds more
 * (comma-separated, e.g. `switchboard.example.com,10.0.0.5:3000`).
 *
 * The header is parsed as a URL authority first: a host name (or IPv4, or
 * a bracketed IPv6 address) and an optional port, nothing else. Userinfo
 * (`127.0.0.1:3500@evil.example`), a path, spaces, a trailing dot, percent
 * escapes or any other character make it malformed: 400, not a host to
 * look up (splitting on ":" once let `127.0.0.1:3500@evil.example` through).
 */
export type HostVerdict = { ok: true; allowed: boolean } | { ok: false; reason: string };

/** A DNS name or IPv4 address (labels of letters, digits and inner hyphens), or an IPv6 address in brackets; then `:port`. */
const authority = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)(?::(\d{1,5}))?$/;

export function checkHost(hostHeader: string | null, extra: readonly string[] = configuredHosts()): HostVerdict {
  if (hostHeader === null || hostHeader === "") return { ok: false, reason: "the request has no Host header" };
  const host = hostHeader.toLowerCase();
  const match = authority.exec(host);
  if (!match || host.length > 261) return { ok: false, reason: "the Host header is not a host name with an optional port" };
  if (match[1] !== undefined && Number(match[1]) > 65_535) return { ok: false, reason: "the Host header's port is out of range" };
  // The URL parser must read the same authority back: a bracketed address it rejects or rewrites is malformed too.
  let parsed: URL;
  try {
    parsed = new URL(`http://${host}/`);
  } catch {
    return { ok: false, reason: "the Host header is not a host name with an optional port" };
  }
  const port = match[1] === undefined ? "" : `:${match[1]}`;
  if (parsed.username || parsed.password || `${parsed.hostname}${port}` !== host) return { ok: false, reason: "the Host header is not a host name with an optional port" };
  const name = parsed.hostname;
  if (name === "localhost" || name === "127.0.0.1" || name === "[::1]") return { ok: true, allowed: true };
  return { ok: true, allowed: extra.some((allowed) => allowed === host || allowed === name) };
}

/** True when the Host header is well-formed and one the app answers. */
export function hostAllowed(hostHeader: string | null, extra: readonly string[] = configuredHosts()): boolean {
  const verdict = checkHost(hostHeader, extra);
  return verdict.ok && verdict.allowed;
}

export function configuredHosts(environment: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return (environment.SWITCHBOARD_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
}
