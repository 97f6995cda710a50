import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PrismaAccounts } from "@/lib/db/accounts";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { startOidcProviderFixture, type OidcProviderFixture } from "@/testing/auth/oidc-provider.fixture";

// The two routes of single sign-on, called as Next calls them, against the local provider fixture.
// TEST DOUBLE for next/headers: the callback reads only whether the request came over https.
vi.mock("next/headers", () => ({ headers: async () => new Headers(), cookies: async () => ({ get: () => undefined }) }));

const app = "http://127.0.0.1:3000";
const database = temporaryAppDatabase();
let provider: OidcProviderFixture;
const saved = { ...process.env };

beforeAll(async () => {
  provider = await startOidcProviderFixture();
  Object.assign(process.env, {
    SWITCHBOARD_OIDC_ISSUER: provider.issuer,
    SWITCHBOARD_OIDC_CLIENT_ID: provider.clientId,
    SWITCHBOARD_OIDC_CLIENT_SECRET: provider.clientSecret,
    SWITCHBOARD_OIDC_NAME: "Fixture SSO",
    SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: provider.issuer,
  });
  await new PrismaAccounts(database.client).createUser({ email: "person@sso.test", role: "runner", passwordHash: "scrypt$unused" });
});

afterAll(async () => {
  for (const name of ["SWITCHBOARD_OIDC_ISSUER", "SWITCHBOARD_OIDC_CLIENT_ID", "SWITCHBOARD_OIDC_CLIENT_SECRET", "SWITCHBOARD_OIDC_NAME", "SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await provider.close();
});

function request(url: string, cookie?: string): NextRequest {
  return new NextRequest(url, { headers: { host: "127.0.0.1:3000", ...(cookie ? { cookie } : {}) } });
}

/** Starts a sign-in: the provider's URL, the state cookie, and the callback URL the provider sends the browser to. */
async function start(next = "/runs") {
  const { GET } = await import("./route");
  const started = await GET(request(`${app}/sign-in/oidc?next=${encodeURIComponent(next)}`));
  expect(started.status).toBe(303);
  const stateCookie = started.cookies.get("switchboard_oidc_state");
  expect(stateCookie).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/sign-in/oidc" });
  const atProvider = await fetch(started.headers.get("location")!, { redirect: "manual" });
  return { cookie: `switchboard_oidc_state=${stateCookie!.value}`, callback: atProvider.headers.get("location")! };
}

describe("the single sign-on routes", () => {
  it("this browser's state: a session cookie and on to the page it asked for", async () => {
    const { GET } = await import("./callback/route");
    const { cookie, callback } = await start("/runs");
    const answer = await GET(request(callback, cookie));
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`${app}/runs`);
    expect(answer.cookies.get("switchboard_session")).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" });
  });

  it("the callback without this browser's state cookie (a link from someone else's sign-in) starts no session and exchanges no code", async () => {
    const { GET } = await import("./callback/route");
    const { callback } = await start();
    const before = provider.tokenRequests;
    const answer = await GET(request(callback));
    expect(answer.headers.get("location")).toBe(`${app}/sign-in`);
    expect(answer.cookies.get("switchboard_session")).toBeUndefined();
    expect(answer.cookies.get("switchboard_sso_error")?.value).toContain("does not belong to this browser");
    expect(provider.tokenRequests).toBe(before);
  });

  it("a state is used once: the same callback again is refused", async () => {
    const { GET } = await import("./callback/route");
    const { cookie, callback } = await start();
    expect((await GET(request(callback, cookie))).cookies.get("switchboard_session")).toBeDefined();
    const again = await GET(request(callback, cookie));
    expect(again.cookies.get("switchboard_session")).toBeUndefined();
    expect(again.headers.get("location")).toBe(`${app}/sign-in`);
  });

  it("a next that leaves the app is not followed", async () => {
    const { GET } = await import("./callback/route");
    const { cookie, callback } = await start("//evil.example/x");
    expect((await GET(request(callback, cookie))).headers.get("location")).toBe(`${app}/`);
  });
});
