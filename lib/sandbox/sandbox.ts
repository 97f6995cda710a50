import type { SnippetRun } from "./run-snippet";
import { SandboxError } from "./sandbox-error";
import { snippetPool, type SnippetPool } from "./snippet-pool";
import { maxSnippetNesting, nestingDepth } from "./snippet-nesting";

export interface SandboxOptions {
  /** Wall-clock limit per evaluation, compiling included. Default 1000 ms. */
  timeoutMs?: number;
  /**
   * Memory limit per evaluation. The scope is parsed inside the sandbox, so
   * it must fit too (a 10 MB response needs well over 10 MB). Default 16 MiB.
   */
  memoryBytes?: number;
  /** The worker pool to run in; default the process-wide one (see snippet-pool.ts). */
  pool?: SnippetPool;
}

/** Anything that can run a `return` snippet over a scope: the sandbox, or a test double. */
export interface Evaluator {
  /**
   * Runs `source`, a function body, with each scope key as a parameter.
   * Values go in and come out as JSON; rejects with a SandboxError on failure.
   * It runs in a worker thread, so the caller's thread is free meanwhile.
   */
  evaluate(source: string, scope: Record<string, unknown>): Promise<unknown>;
}

export interface Sandbox extends Evaluator {
  /** Further evaluations throw a SandboxError with code `closed`. */
  dispose(): void;
}

// Generous for a busy machine (a snippet normally takes well under a millisecond), still bounded.
export const defaultTimeoutMs = 1000;
export const defaultMemoryBytes = 16 * 1024 * 1024;

/** A root name becomes a parameter of the snippet, so it must be an identifier. */
const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Creates a sandbox for manifest snippets. Each evaluation runs in a worker
 * of the snippet pool (a fresh QuickJS runtime there, see run-snippet.ts),
 * which is terminated when the snippet outlives its time limit: nothing a
 * snippet does can stall the caller's thread. Resolves once a worker is warm.
 *
 * @example
 *   const sandbox = await createSandbox({ timeoutMs: 50 });
 *   await sandbox.evaluate("return response.items.map(i => i.id)", { response }); // [1, 2]
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const limits = {
    timeoutMs: positive(options.timeoutMs ?? defaultTimeoutMs, "timeoutMs"),
    memoryBytes: positive(options.memoryBytes ?? defaultMemoryBytes, "memoryBytes"),
  };
  const pool = options.pool ?? snippetPool();
  await pool.warm();
  let open = true;
  return {
    async evaluate(source, scope) {
      if (!open) throw new SandboxError("closed", "the sandbox was disposed; create a new one");
      let run: SnippetRun;
      try {
        run = prepareRun(source, scope, limits.memoryBytes);
      } catch (error) {
        throw error instanceof RangeError ? callerTooDeep(error) : error;
      }
      return pool.evaluate(run, limits);
    },
    dispose() {
      // Every evaluation disposes its own runtime; the pool is shared by the process.
      open = false;
    },
  };
}

let shared: Promise<Sandbox> | undefined;

/** The process-wide sandbox with default limits, created on first call. Never dispose it. */
export function sharedSandbox(): Promise<Sandbox> {
  shared ??= createSandbox().catch((error: unknown) => {
    shared = undefined; // let a later call retry loading the module
    throw error;
  });
  return shared;
}

function prepareRun(body: string, scope: Record<string, unknown>, memoryBytes: number): SnippetRun {
  const depth = nestingDepth(body);
  if (depth > maxSnippetNesting) {
    throw new SandboxError(
      "syntax",
      `the snippet nests brackets ${depth} levels deep; the limit is ${maxSnippetNesting} (split it into named steps)`,
      { reason: "nested too deep" },
    );
  }
  const names = Object.keys(scope);
  const invalid = names.find((name) => !identifierPattern.test(name));
  if (invalid !== undefined) {
    throw new SandboxError("scope", `the scope's root '${invalid}' is not a JavaScript identifier, so a snippet cannot name it`);
  }
  const scopeJson = scopeToJson(scope);
  // Its text and the parsed copy both live in the sandbox: say so rather than report a vague out-of-memory.
  if (scopeJson.length >= memoryBytes) {
    throw new SandboxError(
      "memory",
      `the scope is ${scopeJson.length} characters of JSON, more than the sandbox's memory limit of ${memoryBytes} bytes can hold`,
      { reason: "scope too large" },
    );
  }
  return { body, names, scopeJson };
}

/** A RangeError while preparing the scope here: usually the caller's stack was nearly full, or the scope too deep. */
function callerTooDeep(error: RangeError): SandboxError {
  const message = /call stack/i.test(error.message)
    ? "the host's stack ran out around the snippet; evaluate from a shallower call stack"
    : `the host ran out of room for the snippet's data (${error.message})`;
  return new SandboxError("memory", message, { reason: error.message, cause: error });
}

function scopeToJson(scope: Record<string, unknown>): string {
  try {
    return JSON.stringify(scope);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SandboxError("scope", `the scope cannot go into the sandbox as JSON: ${reason}`, { reason, cause: error });
  }
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}
