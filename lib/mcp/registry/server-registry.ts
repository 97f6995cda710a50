import type { EntryProblem } from "./entry-problem";
import type { ServerEntry } from "./server-entry";

/** A stored secret as the UI and the APIs see it: whether it is there, never its value. */
export type SecretState = "set" | "missing" | "unreadable";

export interface SaveOptions {
  /** New values for secrets the entry lists, by name. A listed name left out keeps its stored value; a name the entry no longer lists is dropped. */
  secretValues?: Readonly<Record<string, string>>;
}

/** One registered server as a list shows it: a valid entry, or a stored row that is refused and why. */
export type ServerListing =
  | { ok: true; id: string; entry: ServerEntry; secrets: Record<string, SecretState> }
  | { ok: false; id: string; name: string | null; problem: EntryProblem; error: string };

/** An entry with its secret values, for connecting to it on the server. Never sent to a browser. */
export interface ResolvedServer {
  entry: ServerEntry;
  secretValues: Record<string, string>;
}

/**
 * The trusted store of MCP servers: transport config and secrets. Agents and
 * workflows refer to a server by id and never see what is in here. Every
 * write AND every read passes `validateServerEntry`, so an entry changed
 * behind the app's back is refused when loaded, not used.
 */
export interface ServerRegistry {
  /** Validates and stores an entry (new or replacing one with its id); returns it with defaults filled. Throws ServerEntryError. */
  save(input: unknown, options?: SaveOptions): Promise<ServerEntry>;
  /** The entry, or null when there is none. Throws ServerEntryError when the stored entry is refused. */
  load(id: string): Promise<ServerEntry | null>;
  /** Every stored server; refused ones are listed with their error, not hidden. */
  list(): Promise<ServerListing[]>;
  /** Removes a server and its secrets; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** One server as list() shows it, or null. */
  describe(id: string): Promise<ServerListing | null>;
  /** The entry and its secret values for a connection, or null. Throws ServerEntryError or RegistrySecretError. */
  resolve(id: string): Promise<ResolvedServer | null>;
}

/** A stored secret that cannot be decrypted: the key changed, or the row or its server was altered. */
export class RegistrySecretError extends Error {
  override name = "RegistrySecretError";
  readonly code = "secret-unreadable";
  constructor(
    readonly serverId: string,
    readonly secret: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the secret ${secret} of server '${serverId}' cannot be decrypted (the secret key changed, or the server's command or URL was changed outside Switchboard); enter it again`,
      options,
    );
  }
}
