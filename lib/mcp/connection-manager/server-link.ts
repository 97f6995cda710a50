import type { McpSession } from "../mcp-session";
import { EntryConnectionError } from "../connection-failure";
import type { ResolvedServer, ServerEntry } from "../registry";
import { type Sleep, withBackoff } from "./backoff";

/** A live session with a server, as a connector hands it over. */
export interface ManagedConnection {
  client: McpSession;
  close(): Promise<void>;
}

export interface ConnectRequest {
  /** Values for the entry's `{{ secrets.NAME }}` references. */
  secretValues: Readonly<Record<string, string>>;
  /** Called with each secret value put into the connection, for redaction. */
  onSecret(value: string): void;
  signal?: AbortSignal;
}

/** Opens one session with a registry entry: connectEntry for real servers; tests inject in-process ones. */
export type Connector = (entry: ServerEntry, request: ConnectRequest) => Promise<ManagedConnection>;

/** A server that could not be reached after every attempt: the world's fault. */
export class ServerUnreachableError extends Error {
  override name = "ServerUnreachableError";
  constructor(
    readonly serverId: string,
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    // A server whose authorization ran out is reachable: the person must act, and the message says so first.
    const reconnect = options.cause instanceof EntryConnectionError && options.cause.code === "oauth-reconnect-needed";
    super(reconnect ? `Reconnect MCP server '${serverId}': ${reason}` : `MCP server '${serverId}' cannot be reached${attempts > 1 ? ` (${attempts} attempts)` : ""}: ${reason}`, options);
  }
}

export interface ServerLinkOptions {
  connect: Connector;
  sleep: Sleep;
  retryBaseDelayMs: number;
  onSecret(value: string): void;
  /** Told of every session opened (a first connection or a reconnection). */
  onConnected?(serverId: string): void;
}

interface Live {
  connection: ManagedConnection;
  /** The transport closed under it (the process died, the session ended). */
  lost: boolean;
}

/**
 * The manager's link to one registered server: at most one session at a
 * time, opened on first use with exponential backoff (the entry's
 * `maxRetries`), shared by every concurrent caller, and replaced when it is
 * found lost. Closing the link ends its session and any connect in progress.
 */
export class ServerLink {
  #pending: Promise<Live> | null = null;
  /** What #pending resolved to, once it has. */
  #live: Live | null = null;
  #closed = false;
  readonly #abort = new AbortController();

  constructor(
    readonly resolved: ResolvedServer,
    private readonly options: ServerLinkOptions,
  ) {}

  get entry(): ServerEntry {
    return this.resolved.entry;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The live session, connecting (or reconnecting, when the last one was lost) first. Throws ServerUnreachableError. */
  async client(signal?: AbortSignal): Promise<McpSession> {
    for (;;) {
      if (this.#closed) throw new ServerUnreachableError(this.entry.id, 0, { cause: new Error("its connection was closed at the end of the run") });
      const pending = (this.#pending ??= this.#open());
      let live: Live;
      try {
        live = await untilAborted(pending, signal);
      } catch (error) {
        if (this.#pending === pending && !signal?.aborted) this.#pending = null;
        throw error;
      }
      if (!live.lost) return live.connection.client;
      this.#forget(pending, live);
    }
  }

  /** A request found the session gone: the next `client()` opens a new one. */
  lost(client: McpSession): void {
    const live = this.#live;
    if (!live || live.connection.client !== client || !this.#pending) return;
    live.lost = true;
    this.#forget(this.#pending, live);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#abort.abort(new Error("the connection manager was closed"));
    const pending = this.#pending;
    this.#pending = null;
    this.#live = null;
    const live = await pending?.catch(() => null);
    await live?.connection.close().catch(() => undefined);
  }

  #forget(pending: Promise<Live>, live: Live): void {
    if (this.#pending === pending) this.#pending = null;
    if (this.#live === live) this.#live = null;
    void live.connection.close().catch(() => undefined);
  }

  async #open(): Promise<Live> {
    const { entry, secretValues } = this.resolved;
    let attempts = 0;
    let connection: ManagedConnection;
    try {
      connection = await withBackoff(
        () => {
          attempts += 1;
          return this.options.connect(entry, { secretValues, onSecret: this.options.onSecret, signal: this.#abort.signal });
        },
        { retries: entry.maxRetries, baseDelayMs: this.options.retryBaseDelayMs, sleep: this.options.sleep, signal: this.#abort.signal, retryable: worthRetrying },
      );
    } catch (error) {
      throw new ServerUnreachableError(entry.id, attempts, { cause: error });
    }
    if (this.#closed) {
      await connection.close().catch(() => undefined);
      throw new ServerUnreachableError(entry.id, attempts, { cause: new Error("its connection was closed at the end of the run") });
    }
    const live: Live = { connection, lost: false };
    // The session says when the transport ends: a killed stdio process, a closed session.
    connection.client.onClose(() => {
      live.lost = true;
    });
    this.#live = live;
    this.options.onConnected?.(entry.id);
    return live;
  }
}

/** A refusal by this machine's rules or a missing secret will not change by trying again. */
function worthRetrying(error: unknown): boolean {
  return !(error instanceof EntryConnectionError && (error.code === "connection-refused-by-policy" || error.code === "secret-missing" || error.code === "oauth-reconnect-needed"));
}

/** The promise, or the signal's reason as soon as it aborts (the shared work goes on for the others). */
function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}
