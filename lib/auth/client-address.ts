/**
 * The caller's address, trusting `X-Forwarded-For` only as far as the
 * proxies listed in SWITCHBOARD_TRUSTED_PROXIES: read from the right (the
 * nearest hop), each listed proxy's entry is skipped, and the first entry
 * that is not a listed proxy is the client. With no proxy listed, the
 * nearest hop's entry counts: Next writes the socket's address there when
 * no one sent the header, and a client that sends one itself only names
 * the key its own failures are counted under.
 *
 * @example
 * clientAddress("203.0.113.9, 10.0.0.2", ["10.0.0.2"]) // "203.0.113.9"
 * clientAddress("1.2.3.4, 203.0.113.9", ["10.0.0.2"]) // "203.0.113.9"
 */
export function clientAddress(forwardedFor: string | null, trustedProxies: readonly string[]): string {
  const hops = (forwardedFor ?? "").split(",").map((hop) => normalAddress(hop.trim())).filter(Boolean);
  const trusted = new Set(trustedProxies.map(normalAddress));
  for (let index = hops.length - 1; index >= 0; index--) if (!trusted.has(hops[index])) return hops[index];
  return hops[0] ?? "unknown address";
}

/** SWITCHBOARD_TRUSTED_PROXIES: comma-separated proxy addresses (exact, e.g. `127.0.0.1, 10.0.0.2`). */
export function trustedProxiesFromEnvironment(environment: NodeJS.ProcessEnv = process.env): string[] {
  return (environment.SWITCHBOARD_TRUSTED_PROXIES ?? "").split(",").map((item) => item.trim()).filter(Boolean);
}

/** One spelling per address: an IPv4 address seen through an IPv6 socket (`::ffff:10.0.0.2`) is the IPv4 one. */
function normalAddress(address: string): string {
  return address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
}
