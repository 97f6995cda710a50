import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PrismaAccounts } from "../../db/accounts";
import { temporaryAppDatabase } from "../../../testing/db/temporary-app-database.fixture";
import { startOidcProviderFixture, type OidcProviderFixture } from "../../../testing/auth/oidc-provider.fixture";
import { accountForEmail, authorizationRequest, completeSignIn, discover, type OidcConfig, oidcConfig, OidcSignInError } from "./oidc";

const redirectUri = "http://127.0.0.1:3000/sign-in/oidc/callback";
const database = temporaryAppDatabase();
let provider: OidcProviderFixture;
let config: OidcConfig;

beforeAll(async () => {
  provider = await startOidcProviderFixture();
  config = oidcConfig({
    SWITCHBOARD_OIDC_ISSUER: provider.issuer,
    SWITCHBOARD_OIDC_CLIENT_ID: provider.clientId,
    SWITCHBOARD_OIDC_CLIENT_SECRET: provider.clientSecret,
    SWITCHBOARD_OIDC_NAME: "Fixture SSO",
    // The fixture listens on loopback: its one origin is let through the address guard, as an operator would list theirs.
    SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: provider.issuer,
  })!;
});

afterAll(async () => {
  await provider.close();
});

beforeEach(() => {
  provider.next = {};
  provider.person = { email: "person@sso.test", emailVerified: true };
  provider.tokenRequests = 0;
});

/** The browser's part: to the provider's authorize URL, and back to the callback with what it says (optionally changed). */
async function signInThrough(change: (query: URLSearchParams) => void = () => undefined) {
  const metadata = await discover(config);
  const { url, pending } = authorizationRequest(config, metadata, redirectUri, "/runs");
  const answer = await fetch(url, { redirect: "manual" });
  const back = new URL(answer.headers.get("location")!);
  expect(back.origin + back.pathname).toBe(redirectUri);
  change(back.searchParams);
  return completeSignIn(config, metadata, redirectUri, pending, back.searchParams);
}

async function refusal(promise: Promise<unknown>): Promise<OidcSignInError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OidcSignInError) return error;
    throw error;
  }
  throw new Error("expected the sign-in to be refused");
}

describe("OIDC single sign-on against a local provider", () => {
  it("the happy path: code + PKCE exchanged, ID token checked, the verified email answered", async () => {
    await expect(signInThrough()).resolves.toEqual({ email: "person@sso.test", subject: "sub-person@sso.test" });
    expect(provider.tokenRequests).toBe(1);
  });

  it("a state that is not this browser's is refused before the code is exchanged", async () => {
    const error = await refusal(signInThrough((query) => query.set("state", "someone-elses-state")));
    expect(error.code).toBe("state");
    expect(error.message).toContain("does not belong to this browser");
    expect(provider.tokenRequests).toBe(0);
  });

  it("an ID token with another nonce (replayed or swapped) is refused", async () => {
    provider.next = { nonce: "nonce-of-another-sign-in" };
    const error = await refusal(signInThrough());
    expect(error.code).toBe("nonce");
  });

  it("an expired ID token is refused", async () => {
    provider.next = { expiresInSeconds: -600 };
    const error = await refusal(signInThrough());
    expect(error).toMatchObject({ code: "token", message: "The ID token from Fixture SSO was refused: it has expired." });
  });

  it("an ID token signed by a key not in the issuer's JWKS is refused", async () => {
    provider.next = { foreignKey: true };
    const error = await refusal(signInThrough());
    expect(error).toMatchObject({ code: "token", message: "The ID token from Fixture SSO was refused: it is not signed by the issuer's keys." });
  });

  it("an ID token for another client (audience) is refused", async () => {
    provider.next = { audience: "another-client" };
    const error = await refusal(signInThrough());
    expect(error.code).toBe("token");
    expect(error.message).toContain("aud");
  });

  it("a code the provider refuses (a PKCE verifier that does not match) is said with the provider's error", async () => {
    const discovered = await discover(config);
    const { url, pending } = authorizationRequest(config, discovered, redirectUri);
    const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
    const error = await refusal(completeSignIn(config, discovered, redirectUri, { ...pending, verifier: "a-verifier-this-sign-in-did-not-send-0123456789" }, back.searchParams));
    expect(error).toMatchObject({ code: "token", message: "Fixture SSO refused the sign-in: invalid_grant (PKCE verifier does not match)." });
  });

  it("an email the provider has not verified is refused", async () => {
    provider.person = { email: "person@sso.test", emailVerified: false };
    const error = await refusal(signInThrough());
    expect(error).toMatchObject({ code: "email" });
    expect(error.message).toContain("has not verified the email person@sso.test");
  });

  it("the issuer on a private address that is not listed is refused by the URL guard", async () => {
    const unlisted = oidcConfig({ SWITCHBOARD_OIDC_ISSUER: provider.issuer.replace("http:", "https:"), SWITCHBOARD_OIDC_CLIENT_ID: provider.clientId })!;
    const error = await refusal(discover(unlisted));
    expect(error.code).toBe("provider");
    expect(error.message).toMatch(/cannot be reached at https:\/\/127\.0\.0\.1:\d+: .*(private|loopback)/);
    // Plain http is for a listed (local) origin only: the secret and the code travel to the issuer.
    expect(() => oidcConfig({ SWITCHBOARD_OIDC_ISSUER: provider.issuer, SWITCHBOARD_OIDC_CLIENT_ID: provider.clientId })).toThrow("must be an https URL");
  });
});

describe("matching the person to an account", () => {
  it("an existing account by its email; an unknown email refused with what to do; with the switch on, a new viewer", async () => {
    const accounts = new PrismaAccounts(database.client);
    const added = await accounts.createUser({ email: "Known@SSO.test", role: "editor", passwordHash: "scrypt$unused" });
    await expect(accountForEmail(accounts, config, "known@sso.test")).resolves.toMatchObject({ id: added!.id, created: false });

    const error = await refusal(accountForEmail(accounts, config, "stranger@sso.test"));
    expect(error).toMatchObject({ code: "unknown-email", message: "stranger@sso.test has no account here. Ask an owner to add you on the People page; then sign in with Fixture SSO again." });
    expect(await accounts.findForSignIn("stranger@sso.test")).toBeNull();

    const created = await accountForEmail(accounts, { ...config, autoCreateViewers: true }, "stranger@sso.test");
    expect(created.created).toBe(true);
    expect(await accounts.findForSignIn("stranger@sso.test")).toMatchObject({ role: "viewer" });
  });
});

describe("oidcConfig", () => {
  it("is off without settings, and names what is missing when half set", () => {
    expect(oidcConfig({})).toBeNull();
    expect(() => oidcConfig({ SWITCHBOARD_OIDC_ISSUER: "https://id.example.com" })).toThrow("the client id is missing");
    expect(() => oidcConfig({ SWITCHBOARD_OIDC_ISSUER: "not a url", SWITCHBOARD_OIDC_CLIENT_ID: "x" })).toThrow("is not a URL");
    expect(oidcConfig({ SWITCHBOARD_OIDC_ISSUER: "https://id.example.com/", SWITCHBOARD_OIDC_CLIENT_ID: "x" })).toMatchObject({ issuer: "https://id.example.com", name: "single sign-on", autoCreateViewers: false });
  });
});
