import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEntry, EntryConnectionError } from "../connect-entry";
import { parseServerEntry, type ServerEntry } from "../registry";
import { guardedWebFetch } from "../../security/guarded-web-fetch";
import { finishConnect, startConnect } from "./connect-flow";
import { fixtureSecretWord, type OAuthFixture, startOAuthFixture } from "../../../testing/mcp/oauth-server.fixture";
import { InMemoryOAuthStateStore } from "./oauth-state";

let fixture: OAuthFixture;
let entry: ServerEntry;
const appOrigin = "http://127.0.0.1:3999";
const policy: { stdioDisabled: boolean; allowedPrivateOrigins: string[] } = { stdioDisabled: true, allowedPrivateOrigins: [] };
// The fixture is on 127.0.0.1: private addresses are allowed for this test only.
const fetch: typeof globalThis.fetch = (input, init) => guardedWebFetch({ allowedOrigins: policy.allowedPrivateOrigins })(input, init);

beforeAll(async () => {
  fixture = await startOAuthFixture();
  policy.allowedPrivateOrigins = [new URL(fixture.mcpUrl).origin];
  const verdict = parseServerEntry({ id: "protected", name: "Protected", transport: "http", url: fixture.mcpUrl, oauth: { grant: "authorization_code" } });
  if (!verdict.ok) throw new Error(verdict.problem.message);
  entry = verdict.entry;
});
afterAll(() => fixture.close());

/** The browser's part: open the consent page, press Allow, follow the redirect to the app's callback. */
async function consent(authorizationUrl: URL, decision = "allow"): Promise<URLSearchParams> {
  const page = await globalThis.fetch(authorizationUrl);
  const html = await page.text();
  expect(html).toContain("Allow access?");
  const form = new URLSearchParams();
  for (const match of html.matchAll(/name="([^"]+)" value="([^"]*)"/g)) form.set(match[1], match[2].replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))));
  form.set("decision", decision);
  const answer = await globalThis.fetch(new URL("/authorize", authorizationUrl), { method: "POST", body: form, redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  const back = new URL(answer.headers.get("location") ?? "");
  expect(back.origin + back.pathname).toBe(`${appOrigin}/servers/oauth/callback`);
  return back.searchParams;
}

async function callSecretWord(store: InMemoryOAuthStateStore) {
  const connection = await connectEntry(entry, { policy, oauthStore: store });
  try {
    return await connection.client.callTool({ name: "secret_word", arguments: {} });
  } finally {
    await connection.close();
  }
}

describe("the Connect flow against a local authorization server", () => {
  it("connects (registration, PKCE, consent), calls the protected tool, refreshes an expired token, and says 'reconnect' once the refresh token is revoked", async () => {
    const store = new InMemoryOAuthStateStore();
    const started = await startConnect(entry, {}, { store, origin: appOrigin, fetch });
    expect(started.kind).toBe("consent");
    if (started.kind !== "consent") return;
    expect(started.authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(started.authorizationUrl.searchParams.get("state")).toBe(started.state);
    expect(store.states.get("protected")?.tokens).toBeUndefined();

    const callback = await consent(started.authorizationUrl);
    await finishConnect(entry, {}, { code: callback.get("code"), state: callback.get("state"), iss: callback.get("iss") }, { store, origin: appOrigin, fetch });
    expect(store.states.get("protected")?.tokens?.access_token).toMatch(/^at-/);
    expect(store.states.get("protected")?.state).toBeUndefined();

    expect(JSON.stringify((await callSecretWord(store)).content)).toContain(fixtureSecretWord);
    expect(fixture.counts.refreshToken).toBe(0);

    fixture.expireAccessTokens();
    expect(JSON.stringify((await callSecretWord(store)).content)).toContain(fixtureSecretWord);
    expect(fixture.counts.refreshToken).toBe(1);

    fixture.expireAccessTokens();
    fixture.revokeRefreshTokens();
    const failure = await callSecretWord(store).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(EntryConnectionError);
    expect((failure as EntryConnectionError).code).toBe("oauth-reconnect-needed");
    expect((failure as Error).message).toBe("its OAuth authorization expired or was revoked and could not be refreshed; connect it again on the Servers page");
    expect(store.states.get("protected")?.needsReconnect).toBeDefined();
  });

  it("a denied consent stores no token", async () => {
    const store = new InMemoryOAuthStateStore();
    const started = await startConnect(entry, {}, { store, origin: appOrigin, fetch });
    if (started.kind !== "consent") throw new Error("expected a consent page");
    const callback = await consent(started.authorizationUrl, "deny");
    const failure = await finishConnect(entry, {}, { code: callback.get("code"), state: callback.get("state"), error: callback.get("error") }, { store, origin: appOrigin, fetch }).catch((error: Error) => error);
    expect((failure as Error).message).toBe("the provider refused the authorization: access_denied");
    expect(store.states.get("protected")?.tokens).toBeUndefined();
  });
});
