import { beforeAll, describe, expect, it } from "vitest";
import { call, type Call } from "../manifest/schemas";
import { sharedSandbox, type Evaluator } from "../sandbox";
import { type Credentials, renderRequest } from "./render-request";

let evaluator: Evaluator;
beforeAll(async () => {
  evaluator = await sharedSandbox();
});

const credentials: Credentials = {
  api: { token: "tok-123", username: "ada", password: "s3cret", key: "key-456" },
  empty: { token: "", username: "", password: "" },
};
const scope = { config: { apiUrl: "https://api.example.com" }, params: { q: "cats & dogs", tags: ["a", "b"], n: 3 } };

function render(fields: Partial<Record<keyof Call, unknown>>, given: Credentials = credentials) {
  return renderRequest(call.parse({ name: "c", url: "{{ config.apiUrl }}/search", ...fields }), scope, evaluator, given);
}

describe("renderRequest credentials", () => {
  it("bearer puts the token in Authorization", async () => {
    const request = await render({ credential: { scheme: "bearer", token: "{{ credentials.api.token }}" } });
    expect(request.headers.authorization).toBe("Bearer tok-123");
  });

  it("bearer with an empty token sends no Authorization header at all", async () => {
    expect((await render({ credential: { scheme: "bearer", token: "{{ credentials.empty.token }}" } })).headers).not.toHaveProperty("authorization");
    expect((await render({ credential: { scheme: "bearer", token: "{{ credentials.absent.token }}" } })).headers).not.toHaveProperty("authorization");
    expect((await render({ credential: { scheme: "bearer", token: "{{ credentials.api.token }}" } }, {})).headers).not.toHaveProperty("authorization");
  });

  it("basic encodes user:password", async () => {
    const request = await render({ credential: { scheme: "basic", username: "{{ credentials.api.username }}", password: "{{ credentials.api.password }}" } });
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from("ada:s3cret").toString("base64")}`);
  });

  it("basic with an empty user name sends no Authorization header", async () => {
    const request = await render({ credential: { scheme: "basic", username: "{{ credentials.empty.username }}", password: "{{ credentials.api.password }}" } });
    expect(request.headers).not.toHaveProperty("authorization");
  });

  it("apiKeyHeader puts the key in the named header (lower-cased)", async () => {
    const request = await render({ credential: { scheme: "apiKeyHeader", header: "X-Api-Key", value: "{{ credentials.api.key }}" } });
    expect(request.headers["x-api-key"]).toBe("key-456");
    expect(request.url.searchParams.has("X-Api-Key")).toBe(false);
  });

  it("apiKeyQuery puts the key in the named query parameter", async () => {
    const request = await render({ credential: { scheme: "apiKeyQuery", param: "api_key", value: "{{ credentials.api.key }}" } });
    expect(request.url.searchParams.get("api_key")).toBe("key-456");
    expect(request.headers).not.toHaveProperty("authorization");
  });

  it("apiKeyHeader and apiKeyQuery with an empty key send nothing", async () => {
    expect((await render({ credential: { scheme: "apiKeyHeader", header: "x-api-key", value: "{{ credentials.empty.token }}" } })).headers).not.toHaveProperty("x-api-key");
    expect((await render({ credential: { scheme: "apiKeyQuery", param: "api_key", value: "{{ credentials.empty.token }}" } })).url.searchParams.has("api_key")).toBe(false);
  });

  it("scheme none adds nothing", async () => {
    const request = await render({ credential: { scheme: "none" } });
    expect(Object.keys(request.headers)).toEqual(["accept"]);
  });

  it("headers may read credentials", async () => {
    const request = await render({ headers: { "X-Token": "Token {{ credentials.api.token }}", "X-Empty": "{{ credentials.empty.token }}" } });
    expect(request.headers["x-token"]).toBe("Token tok-123");
    expect(request.headers).not.toHaveProperty("x-empty");
  });

  it("a header given as a `return` expression may read credentials too", async () => {
    const request = await render({ headers: "return { 'x-token': credentials.api.token }" });
    expect(request.headers["x-token"]).toBe("tok-123");
  });
});

describe("renderRequest keeps credentials out of the body, query and URL", () => {
  it("a body template naming a credential renders empty", async () => {
    const request = await render({ method: "POST", body: { leak: "{{ credentials.api.token }}", text: "token={{ credentials.api.token }}" } });
    expect(JSON.parse(String(request.body ?? "null"))).toEqual({ text: "token=" }); // a missing value leaves its key out
    expect(request.body).not.toContain("tok-123");
  });

  it("a whole-string body template naming a credential sends no secret", async () => {
    const request = await render({ method: "POST", body: "{{ credentials.api.token }}" });
    expect(request.body ?? "").not.toContain("tok-123");
  });

  it("a `return` body cannot reach credentials", async () => {
    await expect(render({ method: "POST", body: "return credentials.api.token" })).rejects.toThrow(/credentials/);
    const request = await render({ method: "POST", body: "return typeof credentials === 'undefined' ? 'none' : JSON.stringify(credentials)" });
    expect(request.body).toBe("none");
  });

  it("a query template naming a credential renders empty (and is left out)", async () => {
    const request = await render({ query: { a: "{{ credentials.api.token }}", b: "x{{ credentials.api.token }}" } });
    expect(request.url.search).toBe("?b=x");
    expect(request.url.href).not.toContain("tok-123");
  });

  it("a URL template naming a credential renders empty", async () => {
    const request = await renderRequest(call.parse({ name: "c", url: "{{ config.apiUrl }}/k/{{ credentials.api.token }}" }), scope, evaluator, credentials);
    expect(request.url.href).toBe("https://api.example.com/k/");
  });
});

describe("renderRequest method, query and body", () => {
  it("defaults to GET and sends no body on GET or HEAD", async () => {
    expect(await render({ body: { a: 1 } })).toMatchObject({ method: "GET", body: undefined });
    expect(await render({ method: "HEAD", body: { a: 1 } })).toMatchObject({ method: "HEAD", body: undefined });
    expect((await render({ method: "GET", body: { a: 1 } })).headers).not.toHaveProperty("content-type");
  });

  it("sends an object body as JSON and a string body as text", async () => {
    expect(await render({ method: "POST", body: { q: "{{ params.q }}", n: "{{ params.n }}" } })).toMatchObject({
      body: '{"q":"cats & dogs","n":3}',
      headers: { "content-type": "application/json" },
    });
    expect(await render({ method: "PUT", body: "q={{ params.q }}" })).toMatchObject({ body: "q=cats & dogs", headers: { "content-type": "text/plain; charset=utf-8" } });
  });

  it("keeps a content-type the manifest set", async () => {
    const request = await render({ method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("takes the method from a template", async () => {
    expect((await render({ method: "{{ params.verb }}" })).method).toBe("GET");
    const request = await renderRequest(call.parse({ name: "c", method: "{{ params.verb }}", url: "https://api.example.com/" }), { params: { verb: "delete" } }, evaluator, {});
    expect(request.method).toBe("DELETE");
  });

  it("encodes query values, repeats arrays and leaves out null and missing ones", async () => {
    const request = await render({ query: { q: "{{ params.q }}", tag: "{{ params.tags }}", none: null, missing: "{{ params.nothing }}", n: "{{ params.n }}" } });
    expect(request.url.search).toBe("?q=cats+%26+dogs&tag=a&tag=b&n=3");
  });

  it("asks for an event stream on sse", async () => {
    expect((await render({ transport: "sse" })).headers.accept).toBe("text/event-stream");
  });
});

describe("renderRequest refuses headers HTTP cannot carry", () => {
  it.each([
    ["a line break (header injection)", "a\r\nX-Injected: 1"],
    ["a character beyond Latin-1", "5 €"],
  ])("%s", async (_label, value) => {
    const attempt = () => renderRequest(call.parse({ name: "c", url: "https://api.example.com/", headers: { "X-Note": "{{ params.note }}" } }), { params: { note: value } }, evaluator, {});
    await expect(attempt()).rejects.toThrow(/header 'x-note' cannot be sent/);
  });

  it("never quotes the value, which may be a secret", async () => {
    const attempt = () =>
      renderRequest(call.parse({ name: "c", url: "https://api.example.com/", credential: { scheme: "bearer", token: "{{ credentials.api.token }}" } }), {}, evaluator, {
        api: { token: "tok\nsecret" },
      });
    const error = await attempt().then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(/header 'authorization' cannot be sent/);
    expect(error?.message).not.toMatch(/secret/);
  });

  it("lets Latin-1 through", async () => {
    const request = await renderRequest(call.parse({ name: "c", url: "https://api.example.com/", headers: { "X-Note": "café" } }), {}, evaluator, {});
    expect(request.headers["x-note"]).toBe("café");
  });
});
