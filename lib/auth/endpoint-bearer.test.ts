import { afterEach, describe, expect, it, vi } from "vitest";
import { authorizeEndpointBearer, type EndpointTokenBook } from "./endpoint-bearer";
import { BearerTokenLimits, memoryLimiters } from "./rate-limits";
import { secretHash } from "../security/secret-tokens";

const envToken = "a-long-enough-token-1234";
const runnerToken = "sbt_runner-token-value-0123456789";
const viewerToken = "sbt_viewer-token-value-0123456789";

/** TEST DOUBLE for the accounts store: two people's tokens, looked up by hash as the real one is. */
function book(environmentToken: string | undefined = envToken, stored = true): EndpointTokenBook & { usedIds: string[] } {
  const tokens = new Map(
    stored
      ? [
          [secretHash(runnerToken), { id: "t1", userId: "u1", userEmail: "runner@example.test", userRole: "runner" as const }],
          [secretHash(viewerToken), { id: "t2", userId: "u2", userEmail: "viewer@example.test", userRole: "viewer" as const }],
        ]
      : [],
  );
  const usedIds: string[] = [];
  return { environmentToken, usedIds, findToken: async (hash) => tokens.get(hash) ?? null, hasTokens: async () => tokens.size > 0, used: async (id) => void usedIds.push(id) };
}

let address = 0;
/** Each test its own address, so the wrong-token counts of one do not reach another. */
const request = (headers: Record<string, string>, from = `10.0.0.${++address}`) =>
  new Request("http://127.0.0.1:3000/api/mcp/demo", { method: "POST", headers: { host: "127.0.0.1:3000", "x-forwarded-for": from, ...headers } });
const messageOf = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;

afterEach(() => vi.restoreAllMocks());

/** Wrong tokens counted in memory (a test double for the database's counters), fresh for each test file. */
const limits = new BearerTokenLimits(memoryLimiters);
const authorize = (request: Request, tokens: EndpointTokenBook) => authorizeEndpointBearer(request, tokens, "runner", { limits, trustedProxies: [] });

describe("authorizeEndpointBearer", () => {
  it("lets the environment's token in as an owner, and a person's token in with their role", async () => {
    expect(await authorize(request({ authorization: `Bearer ${envToken}` }), book())).toMatchObject({ ok: true, actor: { role: "owner", email: "SWITCHBOARD_MCP_TOKEN" } });
    const tokens = book();
    expect(await authorize(request({ authorization: `bearer ${runnerToken}`, origin: "http://127.0.0.1:3000" }), tokens)).toMatchObject({ ok: true, actor: { id: "u1", role: "runner" } });
    expect(tokens.usedIds).toEqual(["t1"]);
  });

  it("refuses a viewer's token (403): calling tools starts runs", async () => {
    const refused = await authorize(request({ authorization: `Bearer ${viewerToken}` }), book());
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.response.status).toBe(403);
    expect(await messageOf(refused.response)).toMatch(/viewer@example\.test, a viewer: .*needs a runner or higher/);
  });

  it("is off (401, saying how to turn it on) while there is no token, and refuses a weak environment token", async () => {
    const off = await authorize(request({ authorization: "Bearer anything" }), book("", false));
    expect(off.ok || off.response.status).toBe(401);
    if (!off.ok) expect(await messageOf(off.response)).toMatch(/SWITCHBOARD_MCP_TOKEN is not set\. To turn it on, create a token on \/tokens/);
    for (const [weak, reason] of [
      ["aaaaaaaaaaaaaaaa", "too few different characters (1"],
      ["abcdefghijklmnop", "a run of consecutive characters"],
      ["short", "shorter than 16 characters"],
    ]) {
      const refused = await authorize(request({ authorization: `Bearer ${weak}` }), book(weak, false));
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(await messageOf(refused.response)).toContain(reason);
    }
  });

  it("refuses a missing or wrong token with 401 and a Bearer challenge", async () => {
    for (const headers of [{} as Record<string, string>, { authorization: "Bearer wrong-token-wrong-token" }, { authorization: `Basic ${envToken}` }, { authorization: `Bearer ${envToken}x` }]) {
      const refused = await authorize(request(headers), book());
      expect(refused.ok).toBe(false);
      if (refused.ok) continue;
      expect(refused.response.status).toBe(401);
      expect(refused.response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    }
  });

  it("refuses a browser page of another origin, even with the token (DNS rebinding)", async () => {
    for (const origin of ["http://evil.example", "null"]) {
      const refused = await authorize(request({ authorization: `Bearer ${envToken}`, origin }), book());
      expect(refused.ok || refused.response.status).toBe(403);
    }
  });

  it("answers 429 to wrong tokens after 20 in a minute from one address, logs it without the token, and still lets a valid token in", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const guesser = "192.0.2.77";
    for (let guess = 0; guess < 20; guess++) {
      const refused = await authorize(request({ authorization: `Bearer guess-number-${guess}-abcdefgh` }, guesser), book());
      expect(refused.ok || refused.response.status).toBe(401);
    }
    const limited = await authorize(request({ authorization: "Bearer guess-number-21-abcdefgh" }, guesser), book());
    expect(limited.ok).toBe(false);
    if (limited.ok) return;
    expect(limited.response.status).toBe(429);
    expect(Number(limited.response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0][0]);
    expect(line).toContain("20 wrong bearer tokens within a minute from 192.0.2.77");
    expect(line).not.toContain("guess-number");
    // A valid token is never refused for wrong ones, even from the same address (tokens are 256-bit: a guess cannot be right).
    expect(await authorize(request({ authorization: `Bearer ${envToken}` }, guesser), book())).toMatchObject({ ok: true });
    expect(await authorize(request({ authorization: `Bearer ${envToken}` }), book())).toMatchObject({ ok: true });
  });
});
