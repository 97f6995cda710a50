import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { guardedFetch } from "./guarded-fetch";

/**
 * To see the guard refuse a REDIRECT (not the first hop) without network,
 * this file treats the fixture server's own address, 127.0.0.1, as if it
 * were public; every other address is judged by the real policy. So the
 * first hop is let through with no origin listed, and the hop the server
 * redirects to meets the real checks.
 */
vi.mock("./address-policy", async (importOriginal) => {
  const real = await importOriginal<typeof import("./address-policy")>();
  return { ...real, refusedAddressReason: (address: string) => (address === "127.0.0.1" ? null : real.refusedAddressReason(address)) };
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** TEST DOUBLE: a server on 127.0.0.1 that redirects every request to `location` and counts them. */
async function redirectingServer(location: string): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((_request, response: ServerResponse) => {
    hits++;
    response.writeHead(302, { location });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

describe("a redirect to a private host is refused at that hop", () => {
  it.each([
    ["http://169.254.169.254/latest/meta-data", /169\.254\.169\.254 is a link-local/],
    ["http://[::ffff:169.254.169.254]/latest/meta-data", /link-local/],
    ["http://2852039166/latest/meta-data", /169\.254\.169\.254 is a link-local/],
    ["http://[fd00:ec2::254]/latest/meta-data", /unique-local/],
    ["http://metadata.google.internal/computeMetadata/v1/", /metadata service/],
    ["http://10.0.0.1/admin", /private/],
    ["http://[::1]:6379/", /loopback/],
    ["http://127.0.0.2/", /loopback/],
    ["http://0.0.0.0/", /unspecified/],
    ["http://localhost/", /this machine/],
    ["http://nonexistent.invalid/", /does not resolve/],
  ])("→ %s", async (location, reason) => {
    const origin = await redirectingServer(location);
    await expect(guardedFetch(`${origin.url}/start`, { method: "GET" })).rejects.toMatchObject({ code: "url-refused", message: expect.stringMatching(reason) });
    expect(origin.hits()).toBe(1);
  });

  it("the stand-in policy really lets the first hop through (control)", async () => {
    const origin = await redirectingServer("/start");
    await expect(guardedFetch(`${origin.url}/start`, { method: "GET" })).rejects.toThrow(/more than 5 redirects/);
    expect(origin.hits()).toBe(6);
  });
});
