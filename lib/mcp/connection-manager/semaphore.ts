/**
 * A counting semaphore: at most `limit` holders at once, the rest wait in
 * line (first come, first served). `limit` 0 means no limit. A waiter whose
 * signal aborts leaves the line and its acquire rejects with the signal's
 * reason.
 *
 * @example
 * const release = await slots.acquire(signal);
 * try { await call(); } finally { release(); }
 */
export class Semaphore {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly limit: number) {}

  /** Holders now. */
  get active(): number {
    return this.#active;
  }

  /** Callers waiting for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.limit <= 0 || this.#active < this.limit) {
      this.#active += 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", leave);
        this.#active += 1;
        resolve(this.#releaser());
      };
      const leave = () => {
        const index = this.#waiting.indexOf(grant);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal?.reason);
      };
      this.#waiting.push(grant);
      signal?.addEventListener("abort", leave, { once: true });
    });
  }

  /** A release that works once, so a double release cannot let an extra caller in. */
  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active -= 1;
      this.#waiting.shift()?.();
    };
  }
}
