export type TimedResult<T> = { kind: "done"; value: T } | { kind: "threw"; error: unknown } | { kind: "timed-out" } | { kind: "cancelled" };

/**
 * Runs `work` against a per-call timeout and the caller's signal, whichever
 * ends first. `work` gets a signal that aborts on either, so a tool that
 * listens can stop; one that does not is abandoned (its result ignored).
 * `timeoutMs` 0 means no timeout. The timer is always cleared.
 */
export async function raceTimeout<T>(work: (signal: AbortSignal) => Promise<T> | T, options: { timeoutMs: number; signal?: AbortSignal }): Promise<TimedResult<T>> {
  if (options.signal?.aborted) return { kind: "cancelled" };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopListening = () => {};
  const stopped = new Promise<TimedResult<T>>((resolve) => {
    if (options.timeoutMs > 0) {
      timer = setTimeout(() => {
        controller.abort(new Error(`timed out after ${options.timeoutMs} ms`));
        resolve({ kind: "timed-out" });
      }, options.timeoutMs);
    }
    const cancel = () => {
      controller.abort(options.signal?.reason);
      resolve({ kind: "cancelled" });
    };
    options.signal?.addEventListener("abort", cancel, { once: true });
    stopListening = () => options.signal?.removeEventListener("abort", cancel);
  });
  const ran = (async (): Promise<TimedResult<T>> => {
    try {
      return { kind: "done", value: await work(controller.signal) };
    } catch (error) {
      return { kind: "threw", error };
    }
  })();
  try {
    return await Promise.race([ran, stopped]);
  } finally {
    clearTimeout(timer);
    stopListening();
  }
}
