import { newQuickJSWASMModule, type QuickJSWASMModule } from "quickjs-emscripten";
import { SandboxError } from "./sandbox-error";

/** Loads one QuickJS wasm module: its own instance, with its own memory. */
export type ModuleLoader = () => Promise<QuickJSWASMModule>;

/**
 * The QuickJS wasm module in use, and a spare loaded in the background.
 *
 * Why a spare: when guest code overflows the host's own stack (native
 * recursion that QuickJS's stack check does not see, or a caller that was
 * already deep), V8 unwinds through the wasm frames mid-operation, possibly
 * inside the allocator. Nothing in that module's memory can be trusted
 * afterwards (freeing the runtime then trips QuickJS's assertions), so the
 * module is dropped whole and the spare takes over at once; loading
 * cannot be done synchronously, and `evaluate` is synchronous.
 */
export class ModuleSupply {
  private current: QuickJSWASMModule | undefined;
  private spare: QuickJSWASMModule | undefined;
  private loading: Promise<void> | undefined;
  private readonly load: ModuleLoader;
  /** How many modules were dropped since start: a number worth logging. */
  discarded = 0;

  private constructor(first: QuickJSWASMModule, load: ModuleLoader) {
    this.load = load;
    this.current = first;
    this.refill();
  }

  /** Loads the first module; the spare follows in the background. */
  static async start(load: ModuleLoader = newQuickJSWASMModule): Promise<ModuleSupply> {
    return new ModuleSupply(await load(), load);
  }

  /** The module to run the next evaluation in. */
  module(): QuickJSWASMModule {
    if (this.current === undefined && this.spare !== undefined) {
      this.current = this.spare;
      this.spare = undefined;
      this.refill();
    }
    if (this.current === undefined) {
      this.refill();
      throw new SandboxError("unavailable", "the sandbox engine is being reloaded after a crash; try again in a moment");
    }
    return this.current;
  }

  /** Never use `module` again; the spare (if loaded) replaces it. Its memory goes when nothing refers to it. */
  discard(module: QuickJSWASMModule): void {
    if (module !== this.current) return;
    this.discarded += 1;
    this.current = this.spare;
    this.spare = undefined;
    this.refill();
  }

  /** Resolves when no load is in flight (for tests and orderly shutdown). */
  async settled(): Promise<void> {
    while (this.loading) await this.loading;
  }

  private refill(): void {
    if (this.loading || (this.current !== undefined && this.spare !== undefined)) return;
    this.loading = this.load()
      .then((module) => {
        if (this.current === undefined) this.current = module;
        else this.spare = module;
      })
      .catch(() => {
        // Retried on demand: module() reports "unavailable" and starts another load.
      })
      .finally(() => {
        this.loading = undefined;
      });
  }
}

let processSupply: Promise<ModuleSupply> | undefined;

/** The process-wide supply, started on first use: the wasm is loaded once per process (plus the spare). */
export function moduleSupply(): Promise<ModuleSupply> {
  processSupply ??= ModuleSupply.start().catch((error: unknown) => {
    processSupply = undefined; // a later call may retry
    throw error;
  });
  return processSupply;
}
