import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, sharedSandbox, type Sandbox } from "./sandbox";
import { SandboxError, type SandboxErrorCode } from "./sandbox-error";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(() => sandbox.dispose());

/** The SandboxError an evaluation throws; fails the test when it returns instead. */
function failure(source: string, scope: Record<string, unknown> = {}, on: Sandbox = sandbox): SandboxError {
  try {
    const value = on.evaluate(source, scope);
    throw new Error(`expected a SandboxError, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return error;
  }
}

function expectCode(source: string, code: SandboxErrorCode, scope: Record<string, unknown> = {}): SandboxError {
  const error = failure(source, scope);
  expect(error.code, error.message).toBe(code);
  return error;
}

describe("evaluate", () => {
  it("runs a function body over the scope's roots", () => {
    const scope = { response: { items: [{ id: 1 }, { id: 2 }] }, config: { prefix: "item-" } };
    expect(sandbox.evaluate("return response.items.map(i => config.prefix + i.id)", scope)).toEqual(["item-1", "item-2"]);
  });

  it("returns JSON values with their types", () => {
    expect(sandbox.evaluate("return 41 + 1", {})).toBe(42);
    expect(sandbox.evaluate("return params.on === true", { params: { on: true } })).toBe(true);
    expect(sandbox.evaluate("return null", {})).toBeNull();
    expect(sandbox.evaluate("return { a: [1, 'two', { three: 3 }] }", {})).toEqual({ a: [1, "two", { three: 3 }] });
  });

  it("gives undefined for no result, and for roots the scope does not have", () => {
    expect(sandbox.evaluate("const x = 1;", {})).toBeUndefined();
    expect(sandbox.evaluate("return undefined", {})).toBeUndefined();
    expect(sandbox.evaluate("return typeof params", { params: undefined })).toBe("undefined");
  });

  it("hands the snippet a copy of the scope, so the caller's objects never change", () => {
    const scope = { params: { list: [3, 1, 2] } };
    expect(sandbox.evaluate("params.list.sort(); params.added = 1; return params.list", scope)).toEqual([1, 2, 3]);
    expect(scope).toEqual({ params: { list: [3, 1, 2] } });
  });

  it("runs in strict mode: undeclared assignments throw, this is undefined", () => {
    expect(expectCode("leaked = 1; return leaked", "thrown").message).toMatch(/leaked/);
    expect(sandbox.evaluate("return this === undefined", {})).toBe(true);
  });

  it("reports a syntax error with the parser's message and its place in the snippet", () => {
    const error = expectCode("const a = 1;\n  return (a b)", "syntax");
    expect(error.message).toContain("expecting ')'");
    expect(error.details.location).toEqual({ line: 2, column: 13 });
    expect(error.isSnippetFault).toBe(true);
  });

  it("places an unfinished snippet at its end", () => {
    const error = expectCode("return a +", "syntax", { a: 1 });
    expect(error.details.location).toEqual({ line: 1, column: 11 });
  });

  it("reports what the snippet threw, in its own words", () => {
    expect(expectCode("throw new RangeError('no items')", "thrown").message).toBe("the snippet threw RangeError: no items");
    expect(expectCode("return response.items.length", "thrown", { response: {} }).details.reason).toMatch(/undefined/);
    expect(expectCode("throw 'plain'", "thrown").details.reason).toBe("plain");
    expect(expectCode("throw { status: 404 }", "thrown").details.reason).toBe('{"status":404}');
  });

  it("refuses results that are not JSON data", () => {
    expect(expectCode("return () => 1", "result").message).toMatch(/a function/);
    expect(expectCode("return { ok: 1, run() {} }", "result").message).toMatch(/a function at key 'run'/);
    expect(expectCode("return Promise.resolve(1)", "result").message).toMatch(/Promise/);
    expect(expectCode("return 10n", "result").message).toMatch(/bigint/);
    expect(expectCode("const o = {}; o.self = o; return o", "result").message).toMatch(/circular/);
  });

  it("rejects scopes that cannot go in as JSON or cannot be named", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(expectCode("return 1", "scope", { cyclic }).isSnippetFault).toBe(false);
    expect(expectCode("return 1", "scope", { "not-a-name": 1 }).message).toMatch(/not-a-name/);
    expect(expectCode("return 1", "scope", { class: 1 }).code).toBe("scope");
  });

  it("refuses a scope larger than the memory limit before starting", async () => {
    const small = await createSandbox({ memoryBytes: 1024 * 1024 });
    const error = failure("return response.length", { response: "x".repeat(2 * 1024 * 1024) }, small);
    expect(error.code).toBe("memory");
    expect(error.message).toMatch(/scope/);
  });

  it("keeps working after failures", () => {
    failure("while (true) {}");
    failure("throw new Error('x')");
    expect(sandbox.evaluate("return 2 * 21", {})).toBe(42);
  });

  it("refuses to run once disposed", async () => {
    const own = await createSandbox();
    own.dispose();
    expect(failure("return 1", {}, own).code).toBe("closed");
  });

  it("checks its options", async () => {
    await expect(createSandbox({ timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
    await expect(createSandbox({ memoryBytes: Number.NaN })).rejects.toThrow(/memoryBytes/);
  });

  it("shares one process-wide instance", async () => {
    const first = await sharedSandbox();
    expect(await sharedSandbox()).toBe(first);
    expect(first.evaluate("return [1, 2].length", {})).toBe(2);
  });
});
