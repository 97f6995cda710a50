import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { guardedFetch, UrlRefusedError } from "./guarded-fetch";
import { checkUrl } from "./url-guard";

/**
 * DNS rebinding, simulated without network: checkUrl's lookup (node:dns/promises)
 * sees a public address for these names, and the lookup made while connecting
 * (node:dns, used by the HTTP client) answers a private one, as a rebinding
 * DNS server would on its second answer. Other names use the real resolver.
 */
const checkTime: Record<string, string> = { "rebind.test": "93.184.216.34", "rebind-mixed.test": "93.184.216.34" };
const connectTime: Record<string, Array<{ address: string; family: number }>> = {
  "rebind.test": [{ address: "127.0.0.1", family: 4 }],
  "rebind-mixed.test": [
    { address: "127.0.0.1", family: 4 },
    { address: "93.184.216.34", family: 4 },
  ],
};

vi.mock("node:dns/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns/promises")>();
  const lookup = async (hostname: string, options: object) =>
    checkTime[hostname] ? [{ address: checkTime[hostname], family: 4 }] : (real.lookup as (hostname: string, options: object) => Promise<unknown>)(hostname, options);
  return { ...real, default: { ...real, lookup }, lookup };
});

vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const lookup = (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const list = connectTime[hostname];
    if (!list) return (real.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    queueMicrotask(() => (options.all ? callback(null, list) : callback(null, list[0].address, list[0].family)));
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

let port = 0;
let hits = 0;
const server = createServer((_request, response) => {
  hits++;
  response.end("reached");
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the address actually connected to is checked", () => {
  it("the name passes checkUrl's own lookup (the precondition)", async () => {
    expect(await checkUrl(`http://rebind.test:${port}/`)).toMatchObject({ ok: true });
  });

  it("refuses a name that passed the check but resolves to loopback when connecting", async () => {
    hits = 0;
    const attempt = guardedFetch(`http://rebind.test:${port}/secret`, { method: "GET" });
    await expect(attempt).rejects.toBeInstanceOf(UrlRefusedError);
    await expect(guardedFetch(`http://rebind.test:${port}/secret`, { method: "GET" })).rejects.toThrow(/rebind\.test resolves to 127\.0\.0\.1, a loopback address/);
    expect(hits).toBe(0);
  });

  it("refuses when any address of the answer is private", async () => {
    hits = 0;
    await expect(guardedFetch(`http://rebind-mixed.test:${port}/secret`, { method: "GET" })).rejects.toMatchObject({ code: "url-refused" });
    expect(hits).toBe(0);
  });

  it("listing the address it rebinds to does not let the name through", async () => {
    hits = 0;
    await expect(guardedFetch(`http://rebind.test:${port}/secret`, { method: "GET", allowedOrigins: [`http://127.0.0.1:${port}`] })).rejects.toThrow(/rebind\.test resolves to 127\.0\.0\.1/);
    expect(hits).toBe(0);
  });

  it("connects through the same lookup when the name's origin is listed (control)", async () => {
    hits = 0;
    const answer = await guardedFetch(`http://rebind.test:${port}/secret`, { method: "GET", allowedOrigins: [`http://rebind.test:${port}`] });
    answer.body.resume();
    expect(answer.status).toBe(200);
    expect(hits).toBe(1);
  });
});
