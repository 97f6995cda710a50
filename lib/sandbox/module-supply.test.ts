import type { QuickJSWASMModule } from "quickjs-emscripten";
import { describe, expect, it } from "vitest";
import { ModuleSupply } from "./module-supply";
import { SandboxError } from "./sandbox-error";

/** A loader double handing out numbered stand-ins; `failing` makes the next loads reject. */
function countingLoader() {
  const loader = {
    loads: 0,
    failing: false,
    load: async (): Promise<QuickJSWASMModule> => {
      loader.loads += 1;
      if (loader.failing) throw new Error("wasm missing");
      return { name: `module ${loader.loads}` } as unknown as QuickJSWASMModule;
    },
  };
  return loader;
}

const nameOf = (module: QuickJSWASMModule): string => (module as unknown as { name: string }).name;

describe("ModuleSupply", () => {
  it("serves the first module and loads a spare in the background", async () => {
    const loader = countingLoader();
    const supply = await ModuleSupply.start(loader.load);
    expect(nameOf(supply.module())).toBe("module 1");
    await supply.settled();
    expect(loader.loads).toBe(2);
    expect(nameOf(supply.module())).toBe("module 1");
  });

  it("replaces a discarded module with the spare at once, then loads a new spare", async () => {
    const loader = countingLoader();
    const supply = await ModuleSupply.start(loader.load);
    await supply.settled();
    supply.discard(supply.module());
    expect(nameOf(supply.module())).toBe("module 2");
    expect(supply.discarded).toBe(1);
    await supply.settled();
    expect(loader.loads).toBe(3);
  });

  it("ignores a discard of a module that is no longer current", async () => {
    const loader = countingLoader();
    const supply = await ModuleSupply.start(loader.load);
    await supply.settled();
    const first = supply.module();
    supply.discard(first);
    supply.discard(first);
    expect(supply.discarded).toBe(1);
    expect(nameOf(supply.module())).toBe("module 2");
  });

  it("reports 'unavailable' while nothing is loaded, and recovers when a load succeeds", async () => {
    const loader = countingLoader();
    const supply = await ModuleSupply.start(loader.load);
    await supply.settled();
    loader.failing = true;
    supply.discard(supply.module()); // the spare takes over; its replacement fails to load
    await supply.settled();
    supply.discard(supply.module()); // nothing left
    await supply.settled();
    expect(() => supply.module()).toThrow(SandboxError);
    try {
      supply.module();
    } catch (error) {
      expect((error as SandboxError).code).toBe("unavailable");
    }
    loader.failing = false;
    await supply.settled();
    expect(() => supply.module()).toThrow(/reloaded/); // this call starts a load that succeeds
    await supply.settled();
    expect(nameOf(supply.module())).toMatch(/^module \d+$/);
  });
});
