import { newQuickJSWASMModule, type QuickJSWASMModule } from "quickjs-emscripten";
import { describe, expect, it } from "vitest";
import { ModuleSupply } from "./module-supply";
import { runSnippet } from "./run-snippet";
import { SandboxError } from "./sandbox-error";

const limits = { timeoutMs: 100, memoryBytes: 16 * 1024 * 1024 };
const run = { body: "return params.n * 2", names: ["params"], scopeJson: '{"params":{"n":21}}' };

/** A module double whose runtimes fail the way a host stack overflow inside wasm does. */
function brokenModule(failure: Error): QuickJSWASMModule {
  return {
    newRuntime: () => {
      throw failure;
    },
  } as unknown as QuickJSWASMModule;
}

/** The first load yields `first`; later loads are real QuickJS modules. */
async function supplyStartingWith(first: QuickJSWASMModule): Promise<ModuleSupply> {
  let loads = 0;
  const supply = await ModuleSupply.start(async () => (loads++ === 0 ? first : newQuickJSWASMModule()));
  await supply.settled();
  return supply;
}

function thrownBy(action: () => unknown): SandboxError {
  try {
    action();
  } catch (error) {
    if (error instanceof SandboxError) return error;
    throw error;
  }
  throw new Error("expected a SandboxError");
}

describe("runSnippet", () => {
  it("runs a snippet in a real module", async () => {
    const supply = await ModuleSupply.start(newQuickJSWASMModule);
    expect(runSnippet(supply, run, limits)).toBe(42);
  });

  it("drops a module whose run overflowed the host's stack, and goes on with the spare", async () => {
    const broken = brokenModule(new RangeError("Maximum call stack size exceeded"));
    const supply = await supplyStartingWith(broken);
    const error = thrownBy(() => runSnippet(supply, run, limits));
    expect(error.code).toBe("memory");
    expect(error.message).toMatch(/host's stack/);
    expect(supply.discarded).toBe(1);
    expect(supply.module()).not.toBe(broken);
    expect(runSnippet(supply, run, limits)).toBe(42);
  });

  it("reports any other engine failure as 'crashed' and drops the module too", async () => {
    const supply = await supplyStartingWith(brokenModule(new Error("Aborted(unreachable)")));
    const error = thrownBy(() => runSnippet(supply, run, limits));
    expect(error.code).toBe("crashed");
    expect(error.isSnippetFault).toBe(false);
    expect(supply.discarded).toBe(1);
  });

  it("keeps the module when the guest merely failed", async () => {
    const supply = await ModuleSupply.start(newQuickJSWASMModule);
    const module = supply.module();
    expect(thrownBy(() => runSnippet(supply, { ...run, body: "while (true) {}" }, limits)).code).toBe("timeout");
    expect(thrownBy(() => runSnippet(supply, { ...run, body: "function f() { f() } f()" }, limits)).code).toBe("memory");
    expect(supply.discarded).toBe(0);
    expect(supply.module()).toBe(module);
  });
});
