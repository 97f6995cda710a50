import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { SnippetRun } from "./run-snippet";
import { SandboxError } from "./sandbox-error";
import type { EvaluationLimits } from "./snippet-driver";
import type { WorkerFailure, WorkerJob, WorkerReply } from "./snippet-worker-main";

/**
 * Worker threads that run `return` snippets, kept warm. QuickJS checks its
 * time limit between bytecodes, so one long built-in call
 * (`new Array(2**32-1).indexOf(1)`) never gives it the chance: on the app's
 * thread that froze every request. Here the pool terminates a worker whose
 * snippet is still running `killGraceMs` after its limit and starts a fresh
 * one in its place; the app's thread never runs guest code.
 */
export interface SnippetPoolOptions {
  /** Worker threads; default 2 (the machine this targets has two cores). */
  size?: number;
  /** V8 heap limits per worker; QuickJS's own memory limit applies inside it as before. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number; stackSizeMb?: number };
}

/**
 * QuickJS's own interrupt still ends an ordinary endless loop at the limit
 * exactly (and the worker is kept); the kill, a second later, is for what
 * never reaches an interrupt check. The second is also room for a loaded
 * machine to schedule the worker at all: the kill's clock starts at dispatch.
 */
export const killGraceMs = 1000;
export const defaultPoolSize = 2;
export const defaultResourceLimits = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

interface Pending {
  job: Omit<WorkerJob, "id">;
  resolve(value: unknown): void;
  reject(error: SandboxError): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Resolves when the worker has loaded QuickJS and can take a snippet. */
  started: Promise<void>;
  markStarted(): void;
  current?: Pending & { id: number; timer: NodeJS.Timeout };
}

export class SnippetPool {
  readonly #size: number;
  readonly #resourceLimits: SnippetPoolOptions["resourceLimits"];
  readonly #slots = new Set<Slot>();
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  /** How many workers were terminated at a time limit or lost (a number worth logging). */
  replaced = 0;

  constructor(options: SnippetPoolOptions = {}) {
    this.#size = Math.max(1, Math.floor(options.size ?? defaultPoolSize));
    this.#resourceLimits = { ...defaultResourceLimits, ...options.resourceLimits };
  }

  /**
   * Starts the workers; resolves once one of them (or, with `every`, each)
   * can take a snippet. A cold worker costs a module and wasm load.
   */
  async warm(options: { every?: boolean } = {}): Promise<void> {
    if (this.#closed) throw new SandboxError("closed", "the snippet pool was closed");
    this.#fill();
    const started = [...this.#slots].map((slot) => slot.started);
    await (options.every ? Promise.all(started) : Promise.race(started));
  }

  /** Runs one prepared snippet in a worker; rejects with a SandboxError. */
  evaluate(run: SnippetRun, limits: EvaluationLimits): Promise<unknown> {
    if (this.#closed) return Promise.reject(new SandboxError("closed", "the snippet pool was closed"));
    return new Promise((resolve, reject) => {
      this.#queue.push({ job: { run, limits }, resolve, reject });
      this.#fill();
      this.#pump();
    });
  }

  /** Terminates every worker; queued snippets are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#queue.splice(0)) pending.reject(new SandboxError("closed", "the snippet pool was closed"));
    const slots = [...this.#slots];
    this.#slots.clear();
    for (const slot of slots) {
      if (slot.current) {
        clearTimeout(slot.current.timer);
        slot.current.reject(new SandboxError("closed", "the snippet pool was closed"));
      }
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #fill(): void {
    while (!this.#closed && this.#slots.size < this.#size) this.#slots.add(this.#start());
  }

  #start(): Slot {
    const worker = new Worker(workerEntry(), { resourceLimits: this.#resourceLimits });
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const slot: Slot = { worker, ready: false, started, markStarted };
    worker.on("message", (reply: WorkerReply) => this.#receive(slot, reply));
    // A worker that died (out of heap, or failed to start) is replaced; its snippet, if any, fails.
    worker.on("error", (error: Error & { code?: string }) => this.#lose(slot, lostError(error, slot)));
    worker.on("exit", (code) => this.#lose(slot, new SandboxError("crashed", `a snippet worker stopped (exit code ${code}); it was replaced, a retry may work`)));
    // Kept referenced while it starts (someone may be waiting in warm()); #pump lets go of it once it idles.
    return slot;
  }

  #receive(slot: Slot, reply: WorkerReply): void {
    if (reply.type === "ready") {
      slot.ready = true;
      slot.markStarted();
      this.#pump();
      return;
    }
    const current = slot.current;
    if (!current || current.id !== reply.id) return;
    clearTimeout(current.timer);
    slot.current = undefined;
    if (reply.type === "done") current.resolve(reply.value);
    else current.reject(errorOf(reply.failure));
    this.#pump();
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (!slot.ready || slot.current) continue;
      const next = this.#queue.shift();
      if (!next) break;
      const id = this.#nextId++;
      // The wall clock starts when the worker gets the snippet; waiting in the queue is not the snippet's time.
      const timer = setTimeout(() => this.#cut(slot), next.job.limits.timeoutMs + killGraceMs);
      slot.current = { ...next, id, timer };
      slot.worker.postMessage({ id, ...next.job } satisfies WorkerJob);
    }
    // Busy, starting or awaited workers keep the process alive (a CLI awaiting a snippet); idle ones do not.
    const awaited = this.#queue.length > 0;
    for (const slot of this.#slots) {
      if (slot.current || awaited || !slot.ready) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** The snippet outlived its limit: the worker goes, a fresh one takes its place. */
  #cut(slot: Slot): void {
    const current = slot.current;
    if (!current) return;
    const { timeoutMs } = current.job.limits;
    this.#lose(
      slot,
      new SandboxError("timeout", `the snippet ran past its time limit of ${timeoutMs} ms and was stopped (an endless loop, or one long built-in call)`, {
        reason: "terminated",
      }),
    );
  }

  #lose(slot: Slot, error: SandboxError): void {
    if (!this.#slots.delete(slot)) return;
    this.replaced += 1;
    const current = slot.current;
    slot.current = undefined;
    if (current) {
      clearTimeout(current.timer);
      current.reject(error);
    } else if (!slot.ready && this.#queue.length > 0) {
      // A worker that could not start: refuse what waits rather than retry forever.
      for (const pending of this.#queue.splice(0)) pending.reject(new SandboxError("unavailable", `the snippet worker could not start (${error.message})`, { cause: error }));
    }
    // Whoever waits for it to start goes on: warm() is not a promise that it will.
    slot.markStarted();
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
    this.#fill();
    this.#pump();
  }
}

function errorOf(failure: WorkerFailure): SandboxError {
  return new SandboxError(failure.code, failure.message, { reason: failure.reason, location: failure.location });
}

function lostError(error: Error & { code?: string }, slot: Slot): SandboxError {
  if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new SandboxError("memory", "the snippet's worker ran out of heap; it was replaced", { reason: error.message, cause: error });
  }
  const when = slot.ready ? "failed" : "failed to start";
  return new SandboxError("crashed", `a snippet worker ${when}: ${error.message}`, { reason: error.message, cause: error });
}

/**
 * The worker's entry file. Next bundles this module into .next/, away from
 * its source folder, so the file is looked up beside the source first and
 * then under the app's root (where `npm start` runs).
 */
function workerEntry(): string {
  const here = typeof import.meta.url === "string" && import.meta.url.startsWith("file:") ? path.dirname(fileURLToPath(import.meta.url)) : null;
  const candidates = [here && path.join(here, "snippet-worker.mjs"), path.join(process.cwd(), "lib", "sandbox", "snippet-worker.mjs")];
  const found = candidates.find((candidate): candidate is string => Boolean(candidate) && existsSync(candidate as string));
  if (!found) throw new SandboxError("unavailable", `the snippet worker's entry (lib/sandbox/snippet-worker.mjs) is missing under ${process.cwd()}`);
  return found;
}

let processPool: SnippetPool | undefined;

/** The process-wide pool, started on first use. */
export function snippetPool(): SnippetPool {
  processPool ??= new SnippetPool({ size: poolSizeFromEnvironment() });
  return processPool;
}

function poolSizeFromEnvironment(): number {
  const raw = Number(process.env.SWITCHBOARD_SNIPPET_WORKERS);
  return Number.isInteger(raw) && raw > 0 ? raw : defaultPoolSize;
}
