import ipaddr from "ipaddr.js";

/**
 * Why an address may not be reached from the server, or null when it may.
 * Only ordinary public unicast addresses pass: private, loopback, link-local
 * (cloud metadata at 169.254.169.254 among them), unspecified, carrier-grade
 * NAT, unique-local, multicast, reserved, and the IPv6 forms that embed an
 * IPv4 address (mapped, 6to4, Teredo, NAT64) are judged by what they embed or
 * refused.
 *
 * @example refusedAddressReason("10.0.0.8") // "private"
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return "not an IP address";
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  const range = parsed.range();
  // ipaddr.js calls the deprecated IPv4-compatible form (::a.b.c.d, ::/96) plain unicast.
  if (range === "unicast" && parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) {
    return "IPv4-compatible (deprecated, embeds an IPv4 address)";
  }
  if (range === "unicast") return null;
  return rangeNames[range] ?? range;
}

const rangeNames: Record<string, string> = {
  private: "private",
  loopback: "loopback",
  linkLocal: "link-local (cloud metadata lives here)",
  unspecified: "unspecified",
  carrierGradeNat: "carrier-grade NAT (shared, not public)",
  uniqueLocal: "unique-local (private IPv6)",
  multicast: "multicast",
  broadcast: "broadcast",
  reserved: "reserved",
  "6to4": "6to4 (embeds an IPv4 address)",
  teredo: "Teredo (embeds an IPv4 address)",
  rfc6052: "NAT64 (embeds an IPv4 address)",
  rfc6145: "IPv4-translated",
  benchmarking: "benchmarking",
  amt: "AMT",
  as112: "AS112",
  deprecated: "deprecated",
  orchid2: "ORCHIDv2",
  droneRemoteIdProtocolEntityTags: "reserved",
};

/** Host names that always mean this machine or a cloud's metadata service. */
const refusedNames = [/^localhost$/i, /\.localhost$/i, /^metadata\.google\.internal$/i, /^metadata$/i, /^instance-data$/i];

export function refusedHostName(host: string): boolean {
  const name = host.replace(/\.$/, "");
  return refusedNames.some((pattern) => pattern.test(name));
}
