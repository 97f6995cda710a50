/**
 * Values kept for `ttlMs` on an injected clock; `ttlMs` 0 keeps nothing.
 * The connection manager keeps each server's tool manifest here, so agents
 * resolving the same server within the TTL do not ask it for tools/list again.
 */
export class ManifestCache<T> {
  readonly #entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.expiresAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T): void {
    if (this.ttlMs <= 0) return;
    this.#entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
