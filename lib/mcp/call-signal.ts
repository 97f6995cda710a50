/** A call's own abort signal, and the way to let go of the run's signal when the call ends. */
export interface CallSignal {
  signal: AbortSignal;
  /** Detaches the call from the run's signal; call it in `finally`. */
  release(): void;
}

/**
 * A signal for one call, aborted when the run's signal aborts, and
 * detached from it when the call ends. The SDK adds an abort listener to
 * whatever signal a request carries; handing it the run's own signal for
 * thousands of calls grows that signal's listener list without end (and
 * Node warns, MaxListenersExceededWarning). Each call's listener lives
 * only as long as the call.
 *
 * @example
 * const call = callSignal(meta.signal);
 * try { return await client.callTool(params, { signal: call.signal }); } finally { call.release(); }
 */
export function callSignal(parent: AbortSignal | undefined): CallSignal {
  const controller = new AbortController();
  if (!parent) return { signal: controller.signal, release: () => undefined };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener("abort", forward, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener("abort", forward) };
}
