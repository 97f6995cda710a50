import { beforeEach, describe, expect, it, vi } from "vitest";
import { checkUrl, hostAddress } from "./url-guard";

/**
 * A stand-in resolver for names that must resolve to a known address without
 * network. Any other name falls through to the real resolver, which has no
 * network here (and `.invalid` never resolves anywhere).
 */
const fakeDns: Record<string, Array<{ address: string; family: number }>> = {
  "intranet.example": [{ address: "10.1.2.3", family: 4 }],
  "router.example": [{ address: "192.168.0.1", family: 4 }],
  "metadata-alias.example": [{ address: "169.254.169.254", family: 4 }],
  "loopback-alias.example": [{ address: "127.0.0.1", family: 4 }],
  "mapped-alias.example": [{ address: "::ffff:10.0.0.1", family: 6 }],
  "v6-private.example": [{ address: "fd12:3456::1", family: 6 }],
  // One public and one private record: the private one must still refuse the name.
  "mixed.example": [
    { address: "93.184.216.34", family: 4 },
    { address: "127.0.0.1", family: 4 },
  ],
  "public.example": [
    { address: "93.184.216.34", family: 4 },
    { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
  ],
};

const lookups: string[] = [];

vi.mock("node:dns/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns/promises")>();
  const lookup = async (hostname: string, options: object) => {
    lookups.push(hostname);
    const known = fakeDns[hostname];
    if (known) return known;
    return (real.lookup as (hostname: string, options: object) => Promise<unknown>)(hostname, options);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

beforeEach(() => {
  lookups.length = 0;
});

// Each row: the URL, and a pattern the refusal reason must match (so a URL
// refused for the wrong reason, e.g. "not a valid URL", shows up).
const refused: Array<[string, RegExp]> = [
  // private IPv4
  ["http://10.0.0.1/", /private/],
  ["http://10.255.255.255/", /private/],
  ["http://172.16.0.1/", /private/],
  ["http://172.31.255.254/", /private/],
  ["http://192.168.1.1/admin", /private/],
  // loopback, in every spelling the URL parser accepts
  ["http://127.0.0.1/", /loopback/],
  ["http://127.1/", /loopback/],
  ["http://127.255.255.254/", /loopback/],
  ["http://2130706433/", /loopback/],
  ["http://0x7f000001/", /loopback/],
  ["http://0177.0.0.1/", /loopback/],
  ["http://0x7f.1/", /loopback/],
  ["http://017700000001/", /loopback/],
  ["http://0x7f.0x0.0x0.0x1/", /loopback/],
  ["http://127.0.0.1./", /loopback/],
  ["http://%31%32%37.0.0.1/", /loopback/],
  ["HTTP://127.0.0.1:8080/", /loopback/],
  // unspecified
  ["http://0.0.0.0/", /unspecified/],
  ["http://0/", /unspecified/],
  ["http://[::]/", /unspecified/],
  // IPv6 loopback and IPv4-mapped IPv6
  ["http://[::1]/", /loopback/],
  ["http://[0:0:0:0:0:0:0:1]/", /loopback/],
  ["http://[::ffff:127.0.0.1]/", /loopback/],
  ["http://[::ffff:7f00:1]/", /loopback/],
  ["http://[0:0:0:0:0:ffff:7f00:1]/", /loopback/],
  ["http://[::ffff:169.254.169.254]/", /link-local/],
  ["http://[::ffff:a9fe:a9fe]/", /link-local/],
  ["http://[::ffff:10.0.0.1]/", /private/],
  ["http://[::ffff:0:127.0.0.1]/", /IPv4-translated/],
  // IPv4-compatible (deprecated ::a.b.c.d) embedding loopback
  ["http://[::127.0.0.1]/", /IPv4-compatible/],
  // link-local and cloud metadata
  ["http://169.254.169.254/latest/meta-data", /link-local/],
  ["http://169.254.1.1/", /link-local/],
  ["http://[fe80::1]/", /link-local/],
  ["http://[fd00:ec2::254]/latest/meta-data", /unique-local/],
  ["http://100.100.100.200/latest/meta-data", /carrier-grade NAT/],
  ["http://metadata.google.internal/computeMetadata/v1/", /metadata service/],
  ["http://METADATA.GOOGLE.INTERNAL./", /metadata service/],
  ["http://metadata/", /metadata service/],
  ["http://instance-data/latest/", /metadata service/],
  // names for this machine
  ["http://localhost/", /this machine/],
  ["http://LOCALHOST.:3000/", /this machine/],
  ["http://foo.localhost/", /this machine/],
  ["http://a.b.localhost/", /this machine/],
  ["http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", /this machine/],
  // other non-public ranges
  ["http://[fc00::1]/", /unique-local/],
  ["http://100.64.0.1/", /carrier-grade NAT/],
  ["http://224.0.0.1/", /multicast/],
  ["http://[ff02::1]/", /multicast/],
  ["http://255.255.255.255/", /broadcast/],
  ["http://240.0.0.1/", /reserved/],
  ["http://198.18.0.1/", /reserved|benchmarking/],
  ["http://192.0.2.1/", /reserved/],
  ["http://[2001:db8::1]/", /reserved/],
  // IPv6 forms that embed an IPv4 address
  ["http://[2002:7f00:1::]/", /6to4/],
  ["http://[2002:a9fe:a9fe::]/", /6to4/],
  ["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", /Teredo/],
  ["http://[64:ff9b::7f00:1]/", /NAT64/],
  ["http://[64:ff9b::169.254.169.254]/", /NAT64/],
  ["http://[64:ff9b:1::a00:1]/", /NAT64/],
  // schemes other than http and https
  ["ftp://1.1.1.1/file", /only http and https/],
  ["file:///etc/passwd", /only http and https/],
  ["gopher://1.1.1.1:70/_GET", /only http and https/],
  ["javascript:alert(1)", /only http and https/],
  ["data:text/html,<script>alert(1)</script>", /only http and https/],
  ["ws://1.1.1.1/", /only http and https/],
  // user information in the URL
  ["http://user:pass@1.1.1.1/", /user name or password/],
  ["https://user@8.8.8.8/", /user name or password/],
  ["http://:secret@1.1.1.1/", /user name or password/],
  // garbage
  ["not a url", /not a valid URL/],
  ["", /not a valid URL/],
  ["http://", /not a valid URL/],
  ["http://[::1/", /not a valid URL/],
  ["http://exa mple.com/", /not a valid URL/],
  ["//1.1.1.1/", /not a valid URL/],
  // names that resolve to private addresses (stand-in resolver above)
  ["http://intranet.example/", /resolves to 10\.1\.2\.3, a private address/],
  ["http://router.example/", /resolves to 192\.168\.0\.1, a private address/],
  ["http://metadata-alias.example/latest/meta-data", /resolves to 169\.254\.169\.254, a link-local/],
  ["http://loopback-alias.example:8080/", /resolves to 127\.0\.0\.1, a loopback address/],
  ["http://mapped-alias.example/", /resolves to ::ffff:10\.0\.0\.1, a private address/],
  ["http://v6-private.example/", /resolves to fd12:3456::1, a unique-local/],
  ["http://mixed.example/", /resolves to 127\.0\.0\.1, a loopback address/],
  // names that do not resolve (no network here; .invalid never resolves)
  ["http://nonexistent.invalid/", /does not resolve/],
  ["https://api.nonexistent.invalid/v1", /does not resolve/],
];

const passing: string[] = [
  "http://1.1.1.1/",
  "https://8.8.8.8/dns-query",
  "https://1.1.1.1./",
  "http://[2606:4700:4700::1111]/",
  "https://[2001:4860:4860::8888]:443/",
  "http://93.184.216.34/",
  "http://93.184.216.34:8080/path?q=1",
  "https://172.32.0.1/", // just outside 172.16/12
  "http://100.128.0.1/", // just outside 100.64/10
  "http://11.0.0.1/", // just outside 10/8
  "http://[::ffff:1.1.1.1]/", // a mapped PUBLIC address is fine
  "http://16843009/", // 1.1.1.1 as a decimal number
  "http://public.example/", // stand-in resolver: only public records
];

describe("checkUrl refuses", () => {
  it("has the rows the issue asks for", () => {
    expect(refused.length).toBeGreaterThanOrEqual(40);
    expect(passing.length).toBeGreaterThanOrEqual(10);
  });

  it.each(refused)("%s", async (url, reason) => {
    expect(await checkUrl(url)).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });
});

describe("checkUrl lets through", () => {
  it.each(passing)("%s", async (url) => {
    const verdict = await checkUrl(url);
    expect(verdict).toMatchObject({ ok: true });
  });

  it("returns the parsed URL, numeric hosts normalized", async () => {
    const verdict = await checkUrl("http://16843009:81/a?b=c");
    expect(verdict.ok && verdict.url.href).toBe("http://1.1.1.1:81/a?b=c");
  });

  it("accepts a URL object as well as a string", async () => {
    expect(await checkUrl(new URL("https://8.8.8.8/"))).toMatchObject({ ok: true });
    expect(await checkUrl(new URL("http://127.0.0.1/"))).toMatchObject({ ok: false });
  });
});

describe("checkUrl name resolution", () => {
  it("does not look up IP literals", async () => {
    await checkUrl("http://1.1.1.1/");
    await checkUrl("http://[::1]/");
    expect(lookups).toEqual([]);
  });

  it("refuses names for this machine before any lookup", async () => {
    await checkUrl("http://localhost/");
    await checkUrl("http://foo.localhost/");
    expect(lookups).toEqual([]);
  });

  it("looks up other names", async () => {
    await checkUrl("http://public.example/");
    expect(lookups).toEqual(["public.example"]);
  });

  it("cuts a long garbage URL short in its reason", async () => {
    expect(await checkUrl(`not a url ${"x".repeat(500)}`)).toEqual({ ok: false, reason: expect.stringMatching(/^.{1,260}$/) });
  });
});

describe("checkUrl with listed private origins", () => {
  const allowedOrigins = ["http://127.0.0.1:11434", "http://ollama.internal:11434"];

  it.each(["http://127.0.0.1:11434/api/chat", "http://ollama.internal:11434/v1/models"])("lets the listed %s through", async (url) => {
    expect(await checkUrl(url, { allowedOrigins })).toMatchObject({ ok: true });
  });

  it.each([
    ["http://127.0.0.1:3000/", /loopback/],
    ["https://127.0.0.1:11434/", /loopback/],
    ["http://127.0.0.2:11434/", /loopback/],
    ["http://localhost:11434/", /this machine/],
    ["http://[::1]:11434/", /loopback/],
    ["http://10.0.0.1/", /private/],
    ["http://169.254.169.254/latest/meta-data", /link-local/],
  ] as const)("refuses %s, private and not listed", async (url, reason) => {
    expect(await checkUrl(url, { allowedOrigins })).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it.each([
    ["file:///etc/passwd", /only http and https/],
    ["http://user:pass@127.0.0.1:11434/", /user name or password/],
    ["not a url", /not a valid URL/],
  ] as const)("still refuses %s", async (url, reason) => {
    expect(await checkUrl(url, { allowedOrigins })).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });
});

describe("hostAddress", () => {
  it.each([
    ["http://1.2.3.4/", "1.2.3.4"],
    ["http://[::1]/", "::1"],
    ["http://2130706433/", "127.0.0.1"],
    ["http://example.com/", null],
    ["http://1a.example/", null],
  ])("%s → %s", (url, address) => {
    expect(hostAddress(new URL(url))).toBe(address);
  });
});
