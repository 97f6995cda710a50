import { beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "./sandbox";
import { SandboxError, type SandboxErrorCode } from "./sandbox-error";

// Snippets written to escape, exhaust or poison the sandbox. Every one must
// end in a SandboxError (or a harmless value), and the next evaluation must
// behave as if nothing happened. The vitest worker dying would fail the run.

let sandbox: Sandbox;
/** For snippets that take a while to reach a memory or stack limit on a busy machine: they must not time out first. */
let patient: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ timeoutMs: 100 });
  patient = await createSandbox({ timeoutMs: 10_000 });
});

async function codeOf(source: string, scope: Record<string, unknown> = {}, evaluator: Sandbox = sandbox): Promise<SandboxErrorCode> {
  try {
    const value = await evaluator.evaluate(source, scope);
    throw new Error(`expected a SandboxError, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return error.code;
  }
}

async function stillWorks(): Promise<void> {
  expect(await sandbox.evaluate("return [1, 2, 3].map(n => n * 2)", {})).toEqual([2, 4, 6]);
}

describe("what a snippet cannot reach", () => {
  it("has no Node globals: process, require, module, fetch", async () => {
    const kinds = await sandbox.evaluate(
      "return [typeof process, typeof require, typeof module, typeof globalThis.fetch, typeof fetch, typeof setTimeout]",
      {},
    );
    expect(kinds).toEqual(["undefined", "undefined", "undefined", "undefined", "undefined", "undefined"]);
  });

  it("cannot load modules: import() never resolves to anything and static import does not parse", async () => {
    expect(await codeOf("return import('node:fs')")).toBe("result");
    expect(await codeOf("import fs from 'node:fs'; return fs")).toBe("syntax");
  });

  it("cannot compile code from strings", async () => {
    expect(await codeOf("return eval('1 + 1')")).toBe("thrown");
    expect(await codeOf("return (() => 0).constructor('return 1')()")).toBe("thrown");
    expect(await codeOf("return Object.getPrototypeOf(function* () {}).constructor('yield 1')().next()")).toBe("thrown");
    expect(await codeOf("return Function('return 1')()")).toBe("thrown");
  });

  it("cannot reach host objects through the scope: values arrive as plain JSON copies", async () => {
    const scope = { params: { when: new Date(0), run: () => "host" } };
    expect(await sandbox.evaluate("return [typeof params.when, typeof params.run]", scope)).toEqual(["string", "undefined"]);
  });
});

describe("exhaustion", () => {
  it("stops an endless loop at the deadline, even inside try/catch", async () => {
    expect(await codeOf("while (true) {}")).toBe("timeout");
    expect(await codeOf("try { for (;;) {} } catch (error) {} return 1")).toBe("timeout");
    await stillWorks();
  });

  it("stops catastrophic regular-expression backtracking", async () => {
    expect(await codeOf("return /(a+)+$/.test('a'.repeat(40) + 'b')")).toBe("timeout");
  });

  it("stops memory bombs at the memory limit or the deadline", async () => {
    expect(["memory", "timeout"]).toContain(await codeOf("const items = []; while (true) items.push(items.length)"));
    expect(await codeOf("let text = 'x'; while (true) text += text", {}, patient)).toBe("memory");
    expect(await codeOf("return 'x'.repeat(1e9).length", {}, patient)).toBe("memory");
    expect(await codeOf("return new Array(1e8).fill(0).length", {}, patient)).toBe("memory");
    expect(await codeOf("try { let t = 'x'; while (true) t += t } catch (error) {} while (true) {}")).toBe("timeout");
    await stillWorks();
  });

  it("turns deep recursion into a stack error", async () => {
    expect(await codeOf("function down(n) { return down(n + 1) + 1 } return down(0)", {}, patient)).toBe("memory");
    expect(await codeOf("const o = { get deep() { return this.deep } }; return o.deep", {}, patient)).toBe("memory");
    await stillWorks();
  });

  it("turns deeply nested values into a stack error instead of overflowing the host", async () => {
    expect(await codeOf("let o = []; for (let i = 0; i < 200000; i++) o = [o]; return o", {}, patient)).toBe("memory");
    expect(await codeOf("let o = []; for (let i = 0; i < 200000; i++) o = [o]; return String(o)", {}, patient)).toBe("memory");
    expect(await codeOf("return JSON.parse('['.repeat(200000) + ']'.repeat(200000))", {}, patient)).toBe("memory");
    await stillWorks();
  });

  it("refuses a snippet nested too deep to parse safely", async () => {
    expect(await codeOf(`return ${"[".repeat(5000)}${"]".repeat(5000)}`)).toBe("syntax");
  });

  it("survives being called from deep in the host's stack: the guest runs in a worker, on a stack of its own", async () => {
    // Each step down is the same function, so its capacity measured once holds for the runs below.
    let deepest = 0;
    const descend = (depth: number, stop: number, leaf: () => Promise<unknown>): Promise<unknown> => {
      deepest = depth;
      return depth >= stop ? leaf() : descend(depth + 1, stop, leaf);
    };
    try {
      void descend(0, Number.POSITIVE_INFINITY, async () => undefined);
    } catch {
      // RangeError: the host's stack is full at `deepest` steps.
    }
    const capacity = deepest;
    const deepValue = () => sandbox.evaluate("let o = []; for (let i = 0; i < 200000; i++) o = [o]; return o", {});
    for (const fraction of [0.5, 0.6, 0.7, 0.8, 0.9]) {
      await expect(descend(0, Math.floor(capacity * fraction), deepValue)).rejects.toThrow(SandboxError);
    }
    await stillWorks();
  });
});

describe("isolation between evaluations", () => {
  it("does not carry globals or changed built-ins into the next evaluation", async () => {
    await sandbox.evaluate(
      "globalThis.leak = 1; Object.prototype.polluted = 1; Array.prototype.map = null; JSON.stringify = () => 'x'; return 0",
      {},
    );
    expect(await sandbox.evaluate("return [typeof globalThis.leak, typeof ({}).polluted, typeof [].map]", {})).toEqual([
      "undefined",
      "undefined",
      "function",
    ]);
  });

  it("does not let scheduled promise jobs run on in later evaluations", async () => {
    await sandbox.evaluate("function again() { globalThis.count = (globalThis.count || 0) + 1; Promise.resolve().then(again) } again(); return 0", {});
    expect(await sandbox.evaluate("return typeof globalThis.count", {})).toBe("undefined");
  });

  it("keeps a body that closes its wrapper early inside the sandbox", async () => {
    try {
      await sandbox.evaluate("return 1 }); globalThis.escaped = 1; (function () {", {});
    } catch (error) {
      expect(error).toBeInstanceOf(SandboxError);
    }
    expect(await sandbox.evaluate("return typeof globalThis.escaped", {})).toBe("undefined");
  });

  it("cannot corrupt its own result reporting", async () => {
    expect(await sandbox.evaluate("JSON.stringify = () => '{\"forged\":1}'; String = null; return { real: 1 }", {})).toEqual({ real: 1 });
  });
});

describe("prototype pollution", () => {
  it("treats __proto__ keys in the scope as data, inside and out", async () => {
    const scope = JSON.parse('{"params": {"__proto__": {"polluted": true}, "name": "x"}}') as Record<string, unknown>;
    expect(await sandbox.evaluate("return [typeof params.polluted, params.name, typeof ({}).polluted]", scope)).toEqual([
      "undefined",
      "x",
      "undefined",
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("drops __proto__ keys from results, so no later merge can reach a prototype", async () => {
    const result = await sandbox.evaluate("return JSON.parse('{\"__proto__\": {\"polluted\": true}, \"kept\": 1}')", {}) as object;
    expect(result).toEqual({ kept: 1 });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
