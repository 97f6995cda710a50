import { ServerEntryError } from "./entry-problem";
import type { ServerEntry } from "./server-entry";
import { serverPolicyFromEnvironment, type ServerPolicy } from "./server-policy";
import type { ResolvedServer, SaveOptions, SecretState, ServerListing, ServerRegistry } from "./server-registry";
import { entryDestination, mergeSecretValues, type ServerDestination } from "./secret-values";
import { idOf, parseServerEntry, validateForSave, validateServerEntry } from "./validate-entry";

/** What the in-memory registry keeps per server: the entry as stored, and its secret values. */
export interface StoredServer {
  entry: unknown;
  secrets: Map<string, string>;
}

export interface InMemoryServerRegistryOptions {
  /** The machine's policy, read at every check (default: from the environment). */
  policy?: () => ServerPolicy;
  /** The backing map; pass one to reach behind the registry in a test. */
  rows?: Map<string, StoredServer>;
}

/**
 * A ServerRegistry in a Map, for tests and single-process use. It checks
 * exactly like the database one: an entry put straight into the map is
 * refused on load. Secret values are held in memory as they are.
 */
export class InMemoryServerRegistry implements ServerRegistry {
  readonly rows: Map<string, StoredServer>;
  readonly #policy: () => ServerPolicy;

  constructor(options: InMemoryServerRegistryOptions = {}) {
    this.rows = options.rows ?? new Map();
    this.#policy = options.policy ?? (() => serverPolicyFromEnvironment());
  }

  async save(input: unknown, options: SaveOptions = {}): Promise<ServerEntry> {
    const entry = await validateForSave(input, options.secretValues ?? {}, this.#policy());
    const existing = this.rows.get(entry.id);
    const stored = Object.fromEntries(existing?.secrets ?? []);
    const secrets = mergeSecretValues(entry, stored, options.secretValues, existing ? storedDestination(existing.entry) : undefined);
    this.rows.set(entry.id, { entry: structuredClone(entry), secrets: new Map(Object.entries(secrets)) });
    return structuredClone(entry);
  }

  async load(id: string): Promise<ServerEntry | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    return this.#check(id, row);
  }

  async list(): Promise<ServerListing[]> {
    const listings = await Promise.all([...this.rows.keys()].map((id) => this.describe(id)));
    return listings.filter((listing): listing is ServerListing => listing !== null).sort(byNameThenId);
  }

  async delete(id: string): Promise<boolean> {
    return this.rows.delete(id);
  }

  async describe(id: string): Promise<ServerListing | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    try {
      const entry = await this.#check(id, row);
      const secrets: Record<string, SecretState> = Object.fromEntries((entry.secrets ?? []).map((name) => [name, row.secrets.has(name) ? "set" : "missing"]));
      return { ok: true, id, entry, secrets };
    } catch (error) {
      if (!(error instanceof ServerEntryError)) throw error;
      return { ok: false, id, name: nameOf(row.entry), problem: error.problem, error: error.message };
    }
  }

  async resolve(id: string): Promise<ResolvedServer | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    const entry = await this.#check(id, row);
    return { entry, secretValues: mergeSecretValues(entry, Object.fromEntries(row.secrets)) };
  }

  async #check(id: string, row: StoredServer): Promise<ServerEntry> {
    const verdict = await validateServerEntry(row.entry, this.#policy());
    if (!verdict.ok) throw new ServerEntryError(verdict.problem, { stored: true, serverId: id });
    if (verdict.entry.id !== id) throw new ServerEntryError({ field: "id", message: `the entry says '${verdict.entry.id}' but is stored as '${id}'` }, { stored: true, serverId: id });
    return structuredClone(verdict.entry);
  }
}


function nameOf(input: unknown): string | null {
  return typeof input === "object" && input !== null && "name" in input && typeof input.name === "string" ? input.name : null;
}

/** Servers by name, then id, so a list reads the same every time. */
export function byNameThenId(a: ServerListing, b: ServerListing): number {
  const nameA = a.ok ? a.entry.name : (a.name ?? a.id);
  const nameB = b.ok ? b.entry.name : (b.name ?? b.id);
  return nameA.localeCompare(nameB) || a.id.localeCompare(b.id);
}

/** Where a stored entry points; a row that no longer parses points nowhere its secrets may follow. */
function storedDestination(stored: unknown): ServerDestination {
  const parsed = parseServerEntry(stored);
  return parsed.ok ? entryDestination(parsed.entry) : { transport: "refused" };
}
