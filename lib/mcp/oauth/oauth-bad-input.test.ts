import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedWebFetch } from "../../security/guarded-web-fetch";
import { AuthorizationCallbackError, completeAuthorization } from "./complete-authorization";
import { serverOAuthFetch } from "./oauth-fetch";
import { InMemoryOAuthStateStore } from "./oauth-state";
import { RegistryOAuthProvider } from "./registry-oauth-provider";

/** TEST DOUBLE: an MCP server that wants OAuth, whose authorization server answers garbage (HTML where JSON metadata belongs). */
let garbage: http.Server;
let origin: string;
beforeAll(async () => {
  garbage = http.createServer((request, response) => {
    if (request.url === "/mcp") {
      response.writeHead(401, { "WWW-Authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` }).end();
    } else if (request.url === "/.well-known/oauth-protected-resource/mcp") {
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [origin] }));
    } else {
      response.writeHead(200, { "Content-Type": "text/html" }).end("<html><body>Welcome to our portal!</body></html>");
    }
  });
  await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => garbage.close(() => resolve())));

function provider(store = new InMemoryOAuthStateStore()) {
  return { store, provider: new RegistryOAuthProvider({ serverId: "remote", store, redirectUrl: "http://127.0.0.1:3224/servers/oauth/callback" }) };
}

const consentNeverAsked = async (): Promise<never> => {
  throw new Error("no consent should be asked for");
};

describe("OAuth with bad input: one clear line each, nothing stored", () => {
  it("refuses protected-resource metadata that points at a private address (the URL guard checks every OAuth URL)", async () => {
    const { store, provider: oauth } = provider();
    const guarded = guardedWebFetch({});
    // The MCP server is public; its 401 points the client at metadata on a private address.
    const next = (async (url: string | URL, init?: RequestInit) =>
      String(url) === "https://mcp.example.test/mcp"
        ? new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Bearer resource_metadata="http://169.254.169.254/latest/meta-data"' } })
        : guarded(url, init)) as typeof fetch;
    const fetch = serverOAuthFetch(oauth, next, { serverUrl: "https://mcp.example.test/mcp", consent: consentNeverAsked });
    const failure = await fetch("https://mcp.example.test/mcp", { method: "POST" }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).not.toContain("\n");
    expect((failure as Error).message).toMatch(/^OAuth for mcp\.example\.test refused by the URL guard: .*169\.254\.169\.254.*; nothing was stored$/);
    expect(store.states.get("remote")?.tokens).toBeUndefined();
    expect(store.states.get("remote")?.clientInformation).toBeUndefined();
  });

  it("refuses a callback whose state does not match the authorization it started", async () => {
    const { store, provider: oauth } = provider();
    await oauth.state();
    const failure = await completeAuthorization(oauth, { code: "stolen-code", state: "someone-elses-state" }, { serverUrl: `${origin}/mcp` }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(AuthorizationCallbackError);
    expect((failure as Error).message).toBe("the callback's state does not match the authorization this app started: nothing was stored; start again with Connect");
    expect(store.states.get("remote")?.tokens).toBeUndefined();
  });

  it("says so when the authorization server answers garbage", async () => {
    const { store, provider: oauth } = provider();
    const fetch = serverOAuthFetch(oauth, globalThis.fetch, { serverUrl: `${origin}/mcp`, consent: consentNeverAsked });
    const failure = await fetch(`${origin}/mcp`, { method: "POST" }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^OAuth for 127\.0\.0\.1:\d+ failed: the authorization server's answer could not be used: .*; nothing was stored$/);
    expect((failure as Error).message).not.toContain("\n");
    expect(store.states.get("remote")?.tokens).toBeUndefined();
    expect(store.states.get("remote")?.clientInformation).toBeUndefined();
  });

  it("marks a server 'reconnect' when its authorization needs a person and none is there (a run)", async () => {
    const { store, provider: oauth } = provider();
    await store.save("remote", { tokens: { access_token: "expired", token_type: "Bearer" } as never });
    const issuer = "https://auth.example.test";
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    // TEST DOUBLE: a well-formed provider that refuses the stored token; with no refresh token, only a new consent helps.
    const answers: Record<string, () => Response> = {
      [`${origin}/mcp`]: () => new Response(null, { status: 401, headers: { "WWW-Authenticate": `Bearer resource_metadata="${origin}/prm"` } }),
      [`${origin}/prm`]: () => json({ resource: `${origin}/mcp`, authorization_servers: [issuer] }),
      [`${issuer}/.well-known/oauth-authorization-server`]: () =>
        json({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, registration_endpoint: `${issuer}/register`, response_types_supported: ["code"], code_challenge_methods_supported: ["S256"] }),
      [`${issuer}/register`]: () => json({ client_id: "registered", redirect_uris: ["http://127.0.0.1:3224/servers/oauth/callback"] }, 201),
    };
    const refusing = (async (url: string | URL) => (answers[String(url)] ?? (() => new Response("not found", { status: 404 })))()) as typeof fetch;
    const fetch = serverOAuthFetch(oauth, refusing, { serverUrl: `${origin}/mcp` });
    await expect(fetch(`${origin}/mcp`, { method: "POST" })).rejects.toMatchObject({ name: "OAuthReconnectNeeded" });
    expect(store.states.get("remote")?.needsReconnect).toMatch(/could not be refreshed; connect it again on the Servers page/);
  });
});
