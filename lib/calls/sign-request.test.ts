import { describe, expect, it } from "vitest";
import { call } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import type { RenderedRequest } from "./render-request";
import { runCalls } from "./run-calls";
import { signRequest, TokenCache } from "./sign-request";

const setup = useFixtureServers();

// AWS's published Signature Version 4 test suite (aws-sig-v4-test-suite): its example key, date, region and service.
const suite = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "service" };
const suiteDate = Date.parse("2015-08-30T12:36:00Z");

function suiteRequest(method: string, target: string): RenderedRequest {
  return { method, url: new URL(target, "https://example.amazonaws.com"), headers: {}, sensitiveHeaders: [], signing: { scheme: "awsSigV4", ...suite } };
}

describe("awsSigV4 matches AWS's published test vectors", () => {
  it.each([
    ["get-vanilla", "GET", "/", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"],
    ["post-vanilla", "POST", "/", "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"],
    ["get-vanilla-query-order-key-case", "GET", "/?Param2=value2&Param1=value1", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"],
  ])("%s", async (_name, method, target, signature) => {
    const request = suiteRequest(method, target);
    await signRequest(request, "vector", { now: () => suiteDate });
    expect(request.headers["x-amz-date"]).toBe("20150830T123600Z");
    expect(request.headers.authorization).toBe(`AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`);
  });

  it("signs a manifest call with the credential's fields and sends the session token, never in the URL", async () => {
    const server = await setup.fixture([{ method: "POST", path: "/", body: { ok: true } }]);
    const list = [call.parse({ name: "put", method: "POST", url: `${server.url}/`, body: { TableName: "t" }, credential: { scheme: "awsSigV4", service: "dynamodb", region: "eu-west-1" } })];
    const credentials = { aws: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret-value", sessionToken: "session-value" } };
    await runCalls(list, { credentials }, { ...setup.context(), credentials, now: () => suiteDate });
    const [request] = setup.requests();
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20150830\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/);
    expect(request.headers["x-amz-security-token"]).toBe("session-value");
    expect(JSON.stringify(request)).not.toContain("secret-value");
  });
});

describe("oauth2ClientCredentials", () => {
  const tokenCall = (url: string) =>
    call.parse({
      name: "me",
      url: `${url}/me`,
      credential: { scheme: "oauth2ClientCredentials", tokenUrl: `${url}/oauth/token`, clientId: "{{ credentials.app.clientId }}", clientSecret: "{{ credentials.app.clientSecret }}", scope: "read" },
    });
  const credentials = { app: { clientId: "client-1", clientSecret: "shh-secret" } };

  it("fetches the token once, reuses it until it expires, then fetches a new one", async () => {
    const server = await setup.fixture([
      { method: "POST", path: "/oauth/token", body: { access_token: "token-1", expires_in: 3600 } },
      { method: "POST", path: "/oauth/token", body: { access_token: "token-2", expires_in: 3600 } },
      { path: "/me", body: { id: 7 } },
    ]);
    let now = 1_000_000;
    const context = { ...setup.context(), credentials, tokenCache: new TokenCache(), now: () => now };
    const list = [tokenCall(server.url)];
    await runCalls(list, {}, context);
    await runCalls(list, {}, context);
    now += 3600 * 1000; // past the expiry the server gave
    await runCalls(list, {}, context);
    const requests = setup.requests();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /oauth/token", "GET /me", "GET /me", "POST /oauth/token", "GET /me"]);
    expect(requests.filter((request) => request.path === "/me").map((request) => request.headers.authorization)).toEqual(["Bearer token-1", "Bearer token-1", "Bearer token-2"]);
    expect(Object.fromEntries(new URLSearchParams(requests[0].body))).toEqual({ grant_type: "client_credentials", scope: "read", client_id: "client-1", client_secret: "shh-secret" });
  });

  it("a refused token request fails the call without quoting the endpoint's reply or the secret", async () => {
    const server = await setup.fixture([{ method: "POST", path: "/oauth/token", status: 401, body: { error: "invalid_client", echo: "shh-secret" } }]);
    const failure = await runCalls([tokenCall(server.url)], {}, { ...setup.context(), credentials, tokenCache: new TokenCache() }).then(() => new Error("resolved"), (error: Error) => error);
    expect(failure.message).toContain("was refused (401)");
    expect(failure.message).not.toContain("shh-secret");
  });

  it("the token endpoint obeys the host rules of any URL: a credential cannot choose its host", async () => {
    const server = await setup.fixture([{ path: "/me", body: {} }]);
    const list = [call.parse({ name: "x", url: `${server.url}/me`, credential: { scheme: "oauth2ClientCredentials", tokenUrl: "https://{{ credentials.app.host }}/token", clientId: "a", clientSecret: "b" } })];
    const context = { ...setup.context(), credentials: { app: { host: "evil.example" } }, tokenCache: new TokenCache() };
    await expect(runCalls(list, {}, context)).rejects.toThrow(/host can only come from the node's config/);
    expect(setup.requests()).toHaveLength(0);
  });
});
