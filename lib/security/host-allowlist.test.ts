import { describe, expect, it } from "vitest";
import { configuredHosts, hostAllowed } from "./host-allowlist";

describe("hostAllowed", () => {
  it.each(["127.0.0.1:3000", "localhost:3000", "LOCALHOST", "[::1]:3000", "127.0.0.1"])("answers loopback host %s", (host) => {
    expect(hostAllowed(host, [])).toBe(true);
  });

  it.each(["evil.example.com", "evil.example.com:3000", "127.0.0.1.evil.example.com", "localhost.evil.example.com", "", "[::2]:3000"])("refuses %s (a rebinding name)", (host) => {
    expect(hostAllowed(host, [])).toBe(false);
  });

  it("refuses a request with no Host header", () => {
    expect(hostAllowed(null, [])).toBe(false);
  });

  it("answers the hosts an operator configured, by name or name and port", () => {
    const extra = configuredHosts({ SWITCHBOARD_ALLOWED_HOSTS: "switchboard.example.com, 10.0.0.5:3000" });
    expect(hostAllowed("switchboard.example.com:443", extra)).toBe(true);
    expect(hostAllowed("10.0.0.5:3000", extra)).toBe(true);
    expect(hostAllowed("10.0.0.5:4000", extra)).toBe(false);
  });
});
