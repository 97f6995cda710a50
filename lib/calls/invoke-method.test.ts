import { describe, expect, it } from "vitest";
import { serviceMethod } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { invokeMethod } from "./invoke-method";

const { fixture, context, requests, evaluator: sandbox } = useFixtureServers();
const inputs = { type: "object", properties: {} };

function method(fields: Record<string, unknown>) {
  return serviceMethod.parse({ description: "A test method.", inputs, ...fields });
}

describe("invokeMethod", () => {
  it("computes `returns` over response, calls, params and config", async () => {
    const { url } = await fixture([
      { path: "/user", body: { login: "ada", id: 1 } },
      { path: "/repos", body: [{ name: "engine" }, { name: "notes" }] },
    ]);
    const result = await invokeMethod(
      method({
        calls: [
          { name: "user", url: "{{ config.baseUrl }}/user" },
          { name: "repos", url: "{{ config.baseUrl }}/repos" },
        ],
        returns: "return { who: calls.user.login, repos: response.map(r => r.name), limit: params.limit, unit: config.unit, status: status }",
      }),
      { params: { limit: 2 }, config: { baseUrl: url, unit: "c" } },
      context(),
    );
    expect(result).toEqual({ isError: false, value: { who: "ada", repos: ["engine", "notes"], limit: 2, unit: "c", status: 200 } });
  });

  it("without `returns`, answers the last reply", async () => {
    const { url } = await fixture([{ path: "/x", body: { a: 1 } }]);
    const result = await invokeMethod(method({ calls: [{ name: "x", url: "{{ config.baseUrl }}/x" }] }), { params: {}, config: { baseUrl: url } }, context());
    expect(result).toEqual({ isError: false, value: { a: 1 } });
  });

  it("a method with no calls is a pure computation", async () => {
    const result = await invokeMethod(method({ returns: "return params.a + params.b" }), { params: { a: 2, b: 3 }, config: {} }, context());
    expect(result).toEqual({ isError: false, value: 5 });
  });

  it("a non-string `returns` is returned as written (templates inside are rendered)", async () => {
    const result = await invokeMethod(method({ returns: { fixed: true, echo: "{{ params.a }}" } }), { params: { a: 7 }, config: {} }, context());
    expect(result).toEqual({ isError: false, value: { fixed: true, echo: 7 } });
  });

  it("a `returns` that throws is an isError result carrying the thrown message", async () => {
    const result = await invokeMethod(
      method({ returns: "return (() => { throw new Error('cannot convert kelvin to metres') })()" }),
      { params: {}, config: {} },
      context(),
    );
    expect(result.isError).toBe(true);
    expect(result).toMatchObject({ message: expect.stringContaining("cannot convert kelvin to metres") });
  });

  it("a `returns` with a runtime error is an isError result", async () => {
    const result = await invokeMethod(method({ returns: "return params.missing.deeper" }), { params: {}, config: {} }, context());
    expect(result).toMatchObject({ isError: true, message: expect.stringMatching(/.+/) });
  });

  it("`returns` cannot read credentials", async () => {
    const result = await invokeMethod(
      method({ returns: "return typeof credentials === 'undefined' ? 'none' : JSON.stringify(credentials)" }),
      { params: {}, config: {} },
      { ...context(), credentials: { api: { token: "tok-123" } } },
    );
    expect(result).toEqual({ isError: false, value: "none" });
  });

  it("with an outputSchema, an object result is also the structured content", async () => {
    const result = await invokeMethod(
      method({ outputSchema: { type: "object", properties: { n: { type: "number" } } }, returns: "return { n: 1 }" }),
      { params: {}, config: {} },
      context(),
    );
    expect(result).toEqual({ isError: false, value: { n: 1 }, structured: { n: 1 } });
  });

  it.each([
    ["a number", "return 42"],
    ["an array", "return [1, 2]"],
    ["null", "return null"],
    ["a string", "return 'text'"],
  ])("with an outputSchema, %s is an isError result", async (_label, returns) => {
    const result = await invokeMethod(method({ outputSchema: { type: "object", properties: {} }, returns }), { params: {}, config: {} }, context());
    expect(result).toMatchObject({ isError: true, message: expect.stringMatching(/not an object.*outputSchema/) });
  });

  it("a failing call is an isError result whose message names the status", async () => {
    const { url } = await fixture([{ path: "/x", status: 502, body: { message: "bad gateway upstream" } }]);
    const result = await invokeMethod(method({ calls: [{ name: "x", url: "{{ config.baseUrl }}/x" }], returns: "return response" }), { params: {}, config: { baseUrl: url } }, context());
    expect(result).toMatchObject({ isError: true, message: expect.stringMatching(/answered 502: bad gateway upstream/) });
  });

  it("a refused URL is an isError result, not an exception", async () => {
    const { url } = await fixture([{ path: "/x", body: {} }]);
    const result = await invokeMethod(method({ calls: [{ name: "x", url: "{{ config.baseUrl }}/x" }] }), { params: {}, config: { baseUrl: url } }, { evaluator: sandbox(), sleep: async () => {} });
    expect(result).toMatchObject({ isError: true, message: expect.stringMatching(/refused: 127\.0\.0\.1 is a loopback address/) });
    expect(requests()).toHaveLength(0);
  });

  it("a matched error.when is an isError result with its message", async () => {
    const { url } = await fixture([{ path: "/x", body: { ok: false, error: "not_authed" } }]);
    const result = await invokeMethod(
      method({ calls: [{ name: "x", url: "{{ config.baseUrl }}/x", error: { when: "return !response.ok", message: "Slack said {{ response.error }}" } }] }),
      { params: {}, config: { baseUrl: url } },
      context(),
    );
    expect(result).toEqual({ isError: true, message: "Slack said not_authed" });
  });
});
