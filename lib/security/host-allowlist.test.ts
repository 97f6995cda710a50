import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "../../proxy";
import { checkHost, configuredHosts, hostAllowed } from "./host-allowlist";

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

describe("the Host header is parsed as a URL authority", () => {
  it.each([
    "127.0.0.1:3500@evil.example",
    "user@127.0.0.1",
    "user:pass@localhost:3000",
    "127.0.0.1:3000/path",
    "127.0.0.1:3000?x=1",
    "evil.example#@127.0.0.1",
    "127.0.0.1 :3000",
    " 127.0.0.1",
    "127.0.0.1\t",
    "127.0.0.1.",
    "localhost.",
    "127.0.0.1:99999",
    "127.0.0.1:3000:4000",
    "127.0.0.1%2f",
    "exa_mple.com",
    "[::1",
    "[::1]x",
    "[::ffff:127.0.0.1]",
    "\u0131ocalhost",
    "-evil.example",
  ])("%j is malformed (400), never looked up", (host) => {
    expect(checkHost(host, ["evil.example"])).toEqual({ ok: false, reason: expect.stringMatching(/Host header/) });
    expect(hostAllowed(host, ["evil.example"])).toBe(false);
  });

  it.each([
    ["127.0.0.1:3500", true],
    ["[::1]:3000", true],
    ["Switchboard.Example.com:443", true],
    ["evil.example", false],
  ])("%j is well-formed (allowed: %s)", (host, allowed) => {
    expect(checkHost(host, ["switchboard.example.com"])).toEqual({ ok: true, allowed });
  });

  it.each([
    ["127.0.0.1:3500@evil.example", 400],
    ["127.0.0.1:3000/x", 400],
    ["evil.example", 421],
  ])("the proxy answers Host %j with %i", async (host, status) => {
    const response = await proxy(new NextRequest("http://127.0.0.1:3000/servers", { headers: { host } }));
    expect(response.status).toBe(status);
    expect(response.headers.get("x-middleware-next")).toBeNull();
  });

  it("the proxy lets a loopback Host through", async () => {
    const response = await proxy(new NextRequest("http://127.0.0.1:3000/servers", { headers: { host: "127.0.0.1:3000" } }));
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });
});
