import { describe, expect, it } from "vitest";
import { refusedAddressReason, refusedHostName } from "./address-policy";

describe("refusedAddressReason", () => {
  it.each([
    ["10.0.0.8", /private/],
    ["172.20.1.1", /private/],
    ["192.168.100.1", /private/],
    ["127.0.0.1", /loopback/],
    ["::1", /loopback/],
    ["0.0.0.0", /unspecified/],
    ["::", /unspecified/],
    ["169.254.169.254", /link-local/],
    ["fe80::abcd", /link-local/],
    ["100.64.0.1", /carrier-grade NAT/],
    ["fd00:ec2::254", /unique-local/],
    ["224.0.0.251", /multicast/],
    ["255.255.255.255", /broadcast/],
    ["::ffff:127.0.0.1", /loopback/],
    ["::ffff:192.168.0.1", /private/],
    // ipaddr.js reads the dotted ::a.b.c.d as IPv4-mapped; the URL parser writes it in hex (::7f00:1)
    ["::127.0.0.1", /loopback/],
    ["::7f00:1", /IPv4-compatible/],
    ["::a9fe:a9fe", /IPv4-compatible/],
    ["::808:808", /IPv4-compatible/],
    // inet_aton shorthand, as a resolver might read it
    ["127.1", /loopback/],
    ["0x7f.1", /loopback/],
    ["2002:c0a8:1::", /6to4/],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /Teredo/],
    ["64:ff9b::a00:1", /NAT64/],
    ["localhost", /not an IP address/],
    ["", /not an IP address/],
    ["example.com", /not an IP address/],
  ])("refuses %s", (address, reason) => {
    expect(refusedAddressReason(address)).toMatch(reason);
  });

  it.each(["1.1.1.1", "8.8.4.4", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("lets %s through", (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });
});

describe("refusedHostName", () => {
  it.each(["localhost", "LocalHost", "localhost.", "api.localhost", "metadata.google.internal", "metadata.google.internal.", "metadata", "instance-data"])(
    "refuses %s",
    (host) => {
      expect(refusedHostName(host)).toBe(true);
    },
  );

  it.each(["example.com", "localhost.example.com", "mylocalhost", "metadata.example.com", "google.internal"])("lets %s through", (host) => {
    expect(refusedHostName(host)).toBe(false);
  });
});
