/** Waits `ms`; rejects with the signal's reason when it aborts first. Injectable so tests never wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });

export interface BackoffOptions {
  /** Attempts after the first one. */
  retries: number;
  /** The wait before the first retry; each next wait doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs?: number;
  sleep: Sleep;
  signal?: AbortSignal;
  /** Whether a failure is worth another attempt (a refusal by policy is not). Default: every failure. */
  retryable?: (error: unknown) => boolean;
}

/** The wait before retry `retry` (1-based): base, 2·base, 4·base… capped. */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs = 10_000): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
}

/**
 * Runs `attempt` until it succeeds, retrying a retryable failure up to
 * `retries` times with exponential backoff (no jitter: one run talks to a
 * server once at a time, so there is no herd to spread). Throws the last
 * failure.
 *
 * @example
 * const connection = await withBackoff(() => connect(entry), { retries: entry.maxRetries, baseDelayMs: 200, sleep: realSleep });
 */
export async function withBackoff<T>(attempt: (attemptNumber: number) => Promise<T>, options: BackoffOptions): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt(retry + 1);
    } catch (error) {
      const retryable = options.retryable?.(error) ?? true;
      if (!retryable || retry >= options.retries || options.signal?.aborted) throw error;
      await options.sleep(backoffDelay(retry + 1, options.baseDelayMs, options.maxDelayMs), options.signal);
    }
  }
}
