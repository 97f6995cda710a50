import { parentPort } from "node:worker_threads";
import { moduleSupply } from "./module-supply";
import { runSnippet, type SnippetRun } from "./run-snippet";
import { SandboxError, type SandboxErrorCode, type SnippetLocation } from "./sandbox-error";
import type { EvaluationLimits } from "./snippet-driver";

/** One evaluation, as the pool posts it. */
export interface WorkerJob {
  id: number;
  run: SnippetRun;
  limits: EvaluationLimits;
}

/** What a SandboxError is made of, to cross the thread boundary (structured clone drops its class). */
export interface WorkerFailure {
  code: SandboxErrorCode;
  message: string;
  reason?: string;
  location?: SnippetLocation;
}

export type WorkerReply = { type: "ready" } | { type: "done"; id: number; value: unknown } | { type: "failed"; id: number; failure: WorkerFailure };

// Runs inside a worker thread of the snippet pool: evaluations arrive one at a time and each gets a
// fresh QuickJS runtime (see run-snippet.ts). The pool terminates this thread when a snippet outlives
// its limit, so whatever the guest does, the app's own thread goes on answering.
const port = parentPort;
if (!port) throw new Error("snippet-worker-main runs in a worker thread of the snippet pool");
const supply = await moduleSupply();
// One evaluation before saying ready, so a first snippet does not pay the engine's cold start inside its time limit.
runSnippet(supply, { body: "return [1, 2].map((n) => n * 2)", names: [], scopeJson: "{}" }, { timeoutMs: 60_000, memoryBytes: 1024 * 1024 });

port.on("message", (job: WorkerJob) => {
  let reply: WorkerReply;
  try {
    reply = { type: "done", id: job.id, value: runSnippet(supply, job.run, job.limits) };
  } catch (error) {
    reply = { type: "failed", id: job.id, failure: failureOf(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ type: "ready" } satisfies WorkerReply);

function failureOf(error: unknown): WorkerFailure {
  if (error instanceof SandboxError) return { code: error.code, message: error.message, reason: error.details.reason, location: error.details.location };
  const reason = error instanceof Error ? error.message : String(error);
  // A RangeError from our own code here: the data was too big or too deep for the worker's host side.
  if (error instanceof RangeError) return { code: "memory", message: `the host ran out of room for the snippet's data (${reason})`, reason };
  return { code: "crashed", message: `the sandbox engine failed (${reason}); a retry may work`, reason };
}
