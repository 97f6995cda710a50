import { createHash } from "node:crypto";
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten";
import type { ModuleSupply } from "./module-supply";
import { SandboxError } from "./sandbox-error";
import { limitError, readDriverOutcome, snippetDriverSource, type EvaluationLimits } from "./snippet-driver";

/**
 * The stack QuickJS may use, in bytes of wasm shadow stack. STACK.md asked
 * for 256 KiB, which keeps plain JS recursion off Node's stack only when the
 * caller is shallow. Native recursion (JSON.stringify / JSON.parse / join /
 * flat of a deeply nested value, the parser on `[[[[…`) uses far more of
 * Node's stack per byte of shadow stack. Measured on Node 20, with guest
 * values 200 000 levels deep, which limit still ends in QuickJS's own
 * "stack overflow" rather than a host RangeError:
 *   256 KiB: JSON, join and the parser overflow the host even from a shallow caller
 *   64 KiB:  the parser overflows; JSON too once the caller is half-way down
 *   32 KiB:  only bracket nesting in eval'd code (now refused) from a caller
 *            a quarter down, and JSON from a caller 90% down
 * 32 KiB still allows ~180 levels of JS recursion and JSON values ~1 600
 * levels deep, far beyond real manifests. Whatever still reaches the host's
 * stack is caught below and the module is replaced.
 */
export const maxStackBytes = 32 * 1024;

/** One snippet, its roots (already checked to be identifiers) and their values as JSON. */
export interface SnippetRun {
  body: string;
  names: string[];
  scopeJson: string;
}

/**
 * Runs one snippet in a runtime of its own, created here and disposed before
 * returning, whatever happened.
 *
 * Why a fresh runtime per evaluation rather than one reused, frozen context
 * (measured with a minimal driver for `return response.items.map(i => i.id)`
 * on Node 20, best of several rounds on a shared 2-core machine):
 *   reused frozen context           ~37-58 µs
 *   fresh context, shared runtime   ~170-200 µs
 *   fresh runtime and context       ~160-170 µs
 * - a reused context leaks unless every intrinsic is frozen, including the
 *   ones not reachable from globalThis (iterator and generator prototypes…);
 *   missing one lets a snippet change what the next one sees, possibly
 *   another user's workflow;
 * - the job queue belongs to the runtime, not the context: a snippet that
 *   kept scheduling promise jobs outlived its disposed context and ran on
 *   in later evaluations of a shared runtime (seen in a probe);
 * - after an interrupt or an out-of-memory, nothing of the failed state is kept.
 * A fresh runtime costs no more than a fresh context. With the driver
 * (parsing it is ~190 µs of the total) a whole evaluation is ~350 µs, small
 * beside the network calls around it; plain `{{ path }}` templates never
 * reach the sandbox at all.
 */
export function runSnippet(supply: ModuleSupply, run: SnippetRun, limits: EvaluationLimits): unknown {
  const module = supply.module();
  let outcome: string;
  try {
    outcome = runInFreshRuntime(module.newRuntime(), run, limits);
  } catch (error) {
    if (error instanceof SandboxError) throw error;
    supply.discard(module);
    throw hostFailure(error);
  }
  return readDriverOutcome(outcome, run.body, limits);
}

/** What a runtime owns that must be freed, in creation order. */
type Owned = { alive: boolean; dispose(): void }[];

/**
 * Throws SandboxError for what the guest did, after freeing everything.
 * Any other exception means the engine itself broke: then nothing is freed,
 * because freeing a runtime left half-way through an operation aborts the
 * wasm instance, which is dropped whole anyway.
 */
function runInFreshRuntime(runtime: QuickJSRuntime, run: SnippetRun, limits: EvaluationLimits): string {
  const owned: Owned = [runtime];
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(maxStackBytes);
    const deadline = startDeadline(limits.timeoutMs);
    runtime.setInterruptHandler(deadline.shouldInterrupt);
    const context = runtime.newContext();
    owned.push(context);
    provideHelpers(context, owned);
    const outcome = callDriver(context, run, { deadline, limits, owned });
    release(owned);
    return outcome;
  } catch (error) {
    if (error instanceof SandboxError) release(owned);
    throw error;
  }
}

/**
 * Functions the language lacks that manifests need, given to every snippet:
 * `sha256(text)`, the hex digest of a string (stable ids from content).
 * Each takes and returns strings only, so no guest object reaches the host.
 */
function provideHelpers(context: QuickJSContext, owned: Owned): void {
  const sha256 = context.newFunction("sha256", (text) => {
    if (context.typeof(text) !== "string") return { error: context.newError({ name: "TypeError", message: "sha256() takes a string" }) };
    return context.newString(createHash("sha256").update(context.getString(text)).digest("hex"));
  });
  owned.push(sha256);
  context.setProp(context.global, "sha256", sha256);
}

function release(owned: Owned): void {
  for (const item of owned.reverse()) if (item.alive) item.dispose();
}

function hostFailure(error: unknown): SandboxError {
  if (error instanceof RangeError) {
    return new SandboxError(
      "memory",
      "the snippet went past the host's stack (a value, recursion or expression nested too deep); the sandbox engine was replaced",
      { reason: error.message, cause: error },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SandboxError("crashed", `the sandbox engine failed (${reason}); it was replaced, a retry may work`, {
    reason,
    cause: error,
  });
}

interface Deadline {
  /** Polled by QuickJS while guest code runs; true stops it with an uncatchable error. */
  shouldInterrupt: () => boolean;
  readonly expired: boolean;
}

/** Starts before the driver is compiled, so the whole evaluation counts. */
function startDeadline(timeoutMs: number): Deadline {
  const endsAt = Date.now() + timeoutMs;
  let expired = false;
  return {
    shouldInterrupt: () => {
      if (Date.now() < endsAt) return false;
      expired = true;
      return true;
    },
    get expired() {
      return expired;
    },
  };
}

interface DriverCall {
  deadline: Deadline;
  limits: EvaluationLimits;
  /** Every handle made here is added, for the caller to free. */
  owned: Owned;
}

/** Returns the driver's tagged outcome string; throws a SandboxError when guest code escaped the driver. */
function callDriver(context: QuickJSContext, run: SnippetRun, { deadline, limits, owned }: DriverCall): string {
  const compiled = context.evalCode(snippetDriverSource, "driver.js", { type: "global", strict: true });
  if (compiled.error) {
    owned.push(compiled.error);
    throw escapedError(context, compiled.error, deadline, limits);
  }
  owned.push(compiled.value);
  const names = context.newString(run.names.join(","));
  owned.push(names);
  const body = context.newString(run.body);
  owned.push(body);
  const scopeJson = context.newString(run.scopeJson);
  owned.push(scopeJson);
  const called = context.callFunction(compiled.value, context.undefined, names, body, scopeJson);
  if (called.error) {
    owned.push(called.error);
    throw escapedError(context, called.error, deadline, limits);
  }
  owned.push(called.value);
  if (context.typeof(called.value) !== "string") {
    throw new SandboxError("result", "the snippet's result could not be read back");
  }
  return context.getString(called.value);
}

/**
 * An error that got past the driver's own catch: the deadline's interrupt
 * (uncatchable), or the memory or stack limit hit again while the driver was
 * handling a first error.
 */
function escapedError(context: QuickJSContext, error: QuickJSHandle, deadline: Deadline, limits: EvaluationLimits): SandboxError {
  if (deadline.expired) {
    return new SandboxError("timeout", `the snippet ran past its time limit of ${limits.timeoutMs} ms (an endless loop?)`, {
      reason: "interrupted",
    });
  }
  const reason = engineMessage(context, error);
  if (engineLimitMessages.has(reason)) return limitError(reason, limits);
  return new SandboxError("thrown", `the snippet failed: ${reason}`, { reason });
}

/** What QuickJS says when a limit is hit (besides "interrupted"). */
const engineLimitMessages = new Set(["out of memory", "string too long", "stack overflow"]);

/** Reads an engine error's message; any guest getter it meets still runs under the deadline. */
function engineMessage(context: QuickJSContext, error: QuickJSHandle): string {
  const dumped: unknown = context.dump(error);
  if (typeof dumped === "object" && dumped !== null && "message" in dumped) return String(dumped.message);
  return String(dumped);
}
