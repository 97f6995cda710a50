import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, sharedSandbox, type Sandbox } from "./sandbox";
import { SandboxError, type SandboxErrorCode } from "./sandbox-error";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(() => sandbox.dispose());

/** The SandboxError an evaluation throws; fails the test when it returns instead. */
async function failure(source: string, scope: Record<string, unknown> = {}, on: Sandbox = sandbox): Promise<SandboxError> {
  try {
    const value = await on.evaluate(source, scope);
    throw new Error(`expected a SandboxError, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return error;
  }
}

async function expectCode(source: string, code: SandboxErrorCode, scope: Record<string, unknown> = {}): Promise<SandboxError> {
  const error = await failure(source, scope);
  expect(error.code, error.message).toBe(code);
  return error;
}

describe("evaluate", () => {
  it("runs a function body over the scope's roots", async () => {
    const scope = { response: { items: [{ id: 1 }, { id: 2 }] }, config: { prefix: "item-" } };
    expect(await sandbox.evaluate("return response.items.map(i => config.prefix + i.id)", scope)).toEqual(["item-1", "item-2"]);
  });

  it("returns JSON values with their types", async () => {
    expect(await sandbox.evaluate("return 41 + 1", {})).toBe(42);
    expect(await sandbox.evaluate("return params.on === true", { params: { on: true } })).toBe(true);
    expect(await sandbox.evaluate("return null", {})).toBeNull();
    expect(await sandbox.evaluate("return { a: [1, 'two', { three: 3 }] }", {})).toEqual({ a: [1, "two", { three: 3 }] });
  });

  it("gives undefined for no result, and for roots the scope does not have", async () => {
    expect(await sandbox.evaluate("const x = 1;", {})).toBeUndefined();
    expect(await sandbox.evaluate("return undefined", {})).toBeUndefined();
    expect(await sandbox.evaluate("return typeof params", { params: undefined })).toBe("undefined");
  });

  it("hands the snippet a copy of the scope, so the caller's objects never change", async () => {
    const scope = { params: { list: [3, 1, 2] } };
    expect(await sandbox.evaluate("params.list.sort(); params.added = 1; return params.list", scope)).toEqual([1, 2, 3]);
    expect(scope).toEqual({ params: { list: [3, 1, 2] } });
  });

  it("runs in strict mode: undeclared assignments throw, this is undefined", async () => {
    expect((await expectCode("leaked = 1; return leaked", "thrown")).message).toMatch(/leaked/);
    expect(await sandbox.evaluate("return this === undefined", {})).toBe(true);
  });

  it("reports a syntax error with the parser's message and its place in the snippet", async () => {
    const error = await expectCode("const a = 1;\n  return (a b)", "syntax");
    expect(error.message).toContain("expecting ')'");
    expect(error.details.location).toEqual({ line: 2, column: 13 });
    expect(error.isSnippetFault).toBe(true);
  });

  it("places an unfinished snippet at its end", async () => {
    const error = await expectCode("return a +", "syntax", { a: 1 });
    expect(error.details.location).toEqual({ line: 1, column: 11 });
  });

  it("reports what the snippet threw, in its own words", async () => {
    expect((await expectCode("throw new RangeError('no items')", "thrown")).message).toBe("the snippet threw RangeError: no items");
    expect((await expectCode("return response.items.length", "thrown", { response: {} })).details.reason).toMatch(/undefined/);
    expect((await expectCode("throw 'plain'", "thrown")).details.reason).toBe("plain");
    expect((await expectCode("throw { status: 404 }", "thrown")).details.reason).toBe('{"status":404}');
  });

  it("refuses results that are not JSON data", async () => {
    expect((await expectCode("return () => 1", "result")).message).toMatch(/a function/);
    expect((await expectCode("return { ok: 1, run() {} }", "result")).message).toMatch(/a function at key 'run'/);
    expect((await expectCode("return Promise.resolve(1)", "result")).message).toMatch(/Promise/);
    expect((await expectCode("return 10n", "result")).message).toMatch(/bigint/);
    expect((await expectCode("const o = {}; o.self = o; return o", "result")).message).toMatch(/circular/);
  });

  it("rejects scopes that cannot go in as JSON or cannot be named", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect((await expectCode("return 1", "scope", { cyclic })).isSnippetFault).toBe(false);
    expect((await expectCode("return 1", "scope", { "not-a-name": 1 })).message).toMatch(/not-a-name/);
    expect((await expectCode("return 1", "scope", { class: 1 })).code).toBe("scope");
  });

  it("refuses a scope larger than the memory limit before starting", async () => {
    const small = await createSandbox({ memoryBytes: 1024 * 1024 });
    const error = await failure("return response.length", { response: "x".repeat(2 * 1024 * 1024) }, small);
    expect(error.code).toBe("memory");
    expect(error.message).toMatch(/scope/);
  });

  it("keeps working after failures", async () => {
    await failure("while (true) {}");
    await failure("throw new Error('x')");
    expect(await sandbox.evaluate("return 2 * 21", {})).toBe(42);
  });

  it("refuses to run once disposed", async () => {
    const own = await createSandbox();
    own.dispose();
    expect((await failure("return 1", {}, own)).code).toBe("closed");
  });

  it("checks its options", async () => {
    await expect(createSandbox({ timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
    await expect(createSandbox({ memoryBytes: Number.NaN })).rejects.toThrow(/memoryBytes/);
  });

  it("shares one process-wide instance", async () => {
    const first = await sharedSandbox();
    expect(await sharedSandbox()).toBe(first);
    expect(await first.evaluate("return [1, 2].length", {})).toBe(2);
  });
});
