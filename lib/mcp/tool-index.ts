import { createHash } from "node:crypto";

/** A server as the index keys it: its id and a fingerprint of its entry, so an edited entry is listed again. */
export interface IndexedServer {
  id: string;
  fingerprint: string;
}

/** Lists a server's tool names (connects to it); throws when it cannot. */
export type ToolNameLister = (serverId: string) => Promise<string[]>;

interface IndexEntry {
  fingerprint: string;
  names: string[];
  listedAt: number;
}

export interface ToolIndexOptions {
  /** After this, names are still answered but listed again in the background (the server may have changed its tools). */
  refreshAfterMs: number;
  /** A server that could not be listed is not waited for again for this long (a page would wait on a server that is down). */
  retryFailedAfterMs: number;
  now?: () => number;
}

/**
 * The names of every registered server's tools, kept by the web process so
 * the canvas page is sent with them and the palette finds a server by a
 * tool's name from the first keystroke. A server is listed again when its
 * entry changes (another fingerprint), when someone lists its tools (the
 * inspector, "Test connection"), when it is saved or deleted (`forget`),
 * and in the background once its names are older than `refreshAfterMs`.
 * Only names: never a description, schema or anything secret.
 */
export class ToolIndex {
  readonly #entries = new Map<string, IndexEntry>();
  readonly #listing = new Map<string, Promise<void>>();
  /** When each server (and entry) last failed to be listed. */
  readonly #failed = new Map<string, number>();
  readonly #now: () => number;

  constructor(
    private readonly list: ToolNameLister,
    private readonly options: ToolIndexOptions,
  ) {
    this.#now = options.now ?? Date.now;
  }

  /** The names last listed for this entry of the server, or undefined. */
  names(server: IndexedServer): string[] | undefined {
    const entry = this.#entries.get(server.id);
    return entry?.fingerprint === server.fingerprint ? entry.names : undefined;
  }

  /** Records names listed elsewhere (the inspector's listing), for this entry of the server. */
  record(server: IndexedServer, names: readonly string[]): void {
    this.#entries.set(server.id, { fingerprint: server.fingerprint, names: [...names], listedAt: this.#now() });
  }

  /** Drops what is known of a server (it was edited or deleted). */
  forget(serverId: string): void {
    this.#entries.delete(serverId);
  }

  /**
   * The names of each server's tools. Servers never listed (or whose entry
   * changed) are listed now, waiting at most `waitMs` for them; a listing
   * that takes longer goes on and serves the next page. Stale names are
   * answered as they are and listed again in the background. A server that
   * cannot be listed has no names (its node says why when it is used), and
   * is not waited for again until `retryFailedAfterMs` has passed.
   */
  async lookup(servers: readonly IndexedServer[], waitMs: number): Promise<Map<string, string[]>> {
    const waiting: Promise<void>[] = [];
    for (const server of servers) {
      const known = this.names(server);
      const entry = this.#entries.get(server.id);
      if (known === undefined) {
        const failedAt = this.#failed.get(keyOf(server));
        if (failedAt === undefined || this.#now() - failedAt >= this.options.retryFailedAfterMs) waiting.push(this.refresh(server));
      } else if (entry && this.#now() - entry.listedAt >= this.options.refreshAfterMs) void this.refresh(server);
    }
    if (waiting.length > 0) await Promise.race([Promise.all(waiting), new Promise((resolve) => setTimeout(resolve, waitMs).unref?.())]);
    const found = new Map<string, string[]>();
    for (const server of servers) {
      const names = this.names(server);
      if (names) found.set(server.id, names);
    }
    return found;
  }

  /** Lists one server's tools into the index; one listing at a time per server and entry. Never rejects. */
  refresh(server: IndexedServer): Promise<void> {
    const key = keyOf(server);
    const running = this.#listing.get(key);
    if (running) return running;
    const listing = this.list(server.id)
      .then((names) => {
        this.#failed.delete(key);
        this.record(server, names);
      })
      .catch(() => void this.#failed.set(key, this.#now()))
      .finally(() => this.#listing.delete(key));
    this.#listing.set(key, listing);
    return listing;
  }
}

function keyOf(server: IndexedServer): string {
  return `${server.id}\n${server.fingerprint}`;
}

/** A fingerprint of a server's entry (its transport, command or URL, arguments, secrets' names): another one means another server to list. */
export function entryFingerprint(entry: unknown): string {
  return createHash("sha256").update(JSON.stringify(entry)).digest("base64url").slice(0, 22);
}

/** One index per process, on globalThis: Next may load a module more than once, and the embedded worker shares the web process. */
const holder = globalThis as typeof globalThis & { switchboardToolIndex?: ToolIndex };

/**
 * The process's tool index: made by `create` the first time one is given
 * (app/servers/tool-index.ts); without it, the index if one exists (the
 * embedded worker feeds it what its runs list, and makes none).
 */
export function processToolIndex(create?: () => ToolIndex): ToolIndex | undefined {
  if (create) holder.switchboardToolIndex ??= create();
  return holder.switchboardToolIndex;
}
