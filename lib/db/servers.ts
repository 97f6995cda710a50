import type { McpServer, McpServerSecret, PrismaClient } from "../generated/prisma/client";
import {
  RegistrySecretError,
  ServerEntryError,
  byNameThenId,
  entryDestination,
  idOf,
  mergeSecretValues,
  secretBinding,
  serverPolicyFromEnvironment,
  validateForSave,
  validateServerEntry,
  type ResolvedServer,
  type SaveOptions,
  type SecretState,
  type ServerEntry,
  type ServerListing,
  type ServerPolicy,
  type ServerRegistry,
} from "../mcp";
import { secretBox, SecretError, type SecretBox } from "../security";
import { toDatabaseError } from "./database-error";
import { entryInputFromRow, rowDestination, rowFromEntry } from "./server-rows";

export interface PrismaServerRegistryOptions {
  /** Seals and opens secrets (default: the process's box, its key from the environment or data/secret.key). */
  box?: () => SecretBox;
  /** The machine's policy, read at every check (default: from the environment). */
  policy?: () => ServerPolicy;
}

type Row = McpServer & { secrets: McpServerSecret[] };

/**
 * The registry in the database (McpServer, McpServerSecret). Rows are
 * parsed by the registry's schema on every read, so a row edited with SQL
 * is refused on load and listed with its error. Secrets are sealed with
 * AES-256-GCM, bound to the server's command or URL.
 *
 *   const registry = new PrismaServerRegistry(createPrismaClient());
 *   await registry.save({ id: "files", name: "Files", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv"] });
 */
export class PrismaServerRegistry implements ServerRegistry {
  readonly #client: PrismaClient;
  readonly #box: () => SecretBox;
  readonly #policy: () => ServerPolicy;

  constructor(client: PrismaClient, options: PrismaServerRegistryOptions = {}) {
    this.#client = client;
    this.#box = options.box ?? secretBox;
    this.#policy = options.policy ?? (() => serverPolicyFromEnvironment());
  }

  async save(input: unknown, options: SaveOptions = {}): Promise<ServerEntry> {
    const entry = await validateForSave(input, options.secretValues ?? {}, this.#policy());
    const existing = await this.#row(entry.id, `read server '${entry.id}'`);
    // Stored secrets stay only while the server stays where it was; ones that no longer open are dropped.
    const stored = existing ? this.#openReadable(existing) : {};
    const values = mergeSecretValues(entry, stored, options.secretValues, existing ? rowDestination(existing) : undefined);
    const sealed = Object.entries(values).map(([name, value]) => ({
      serverId: entry.id,
      name,
      value: this.#box().seal(value, secretBinding(entry.id, name, entryDestination(entry))),
    }));
    const data = rowFromEntry(entry);
    try {
      await this.#client.$transaction([
        this.#client.mcpServer.upsert({ where: { id: entry.id }, create: data, update: data }),
        this.#client.mcpServerSecret.deleteMany({ where: { serverId: entry.id } }),
        this.#client.mcpServerSecret.createMany({ data: sealed }),
      ]);
    } catch (error) {
      throw toDatabaseError(error, `save server '${entry.id}'`);
    }
    return entry;
  }

  /**
   * Sets (or, with undefined, clears) a server's default approval policies
   * and nothing else: its entry and secrets stay as they are. The value is
   * checked by the entry's schema with the rest of the row (a bad one is a
   * ServerEntryError naming the field, e.g. `approval.tools.send_email.decide`).
   * False when there is no such server.
   */
  async setApproval(id: string, approval: unknown): Promise<boolean> {
    const row = await this.#row(id, `read server '${id}'`);
    if (!row) return false;
    const entry = await this.#check(row);
    const checked = await validateServerEntry({ ...entry, approval }, this.#policy());
    if (!checked.ok) throw new ServerEntryError(checked.problem, { stored: false, serverId: id });
    try {
      await this.#client.mcpServer.update({ where: { id }, data: { approval: checked.entry.approval ? JSON.stringify(checked.entry.approval) : null } });
    } catch (error) {
      throw toDatabaseError(error, `save the approval policies of server '${id}'`);
    }
    return true;
  }

  async load(id: string): Promise<ServerEntry | null> {
    const row = await this.#row(id, `read server '${id}'`);
    return row ? this.#check(row) : null;
  }

  async list(): Promise<ServerListing[]> {
    let rows: Row[];
    try {
      rows = await this.#client.mcpServer.findMany({ include: { secrets: true } });
    } catch (error) {
      throw toDatabaseError(error, "list the MCP servers");
    }
    return (await Promise.all(rows.map((row) => this.#describe(row)))).sort(byNameThenId);
  }

  async delete(id: string): Promise<boolean> {
    try {
      const [, removed] = await this.#client.$transaction([
        this.#client.mcpServerSecret.deleteMany({ where: { serverId: id } }),
        this.#client.mcpServer.deleteMany({ where: { id } }),
      ]);
      return removed.count > 0;
    } catch (error) {
      throw toDatabaseError(error, `delete server '${id}'`);
    }
  }

  async describe(id: string): Promise<ServerListing | null> {
    const row = await this.#row(id, `read server '${id}'`);
    return row ? this.#describe(row) : null;
  }

  async resolve(id: string): Promise<ResolvedServer | null> {
    const row = await this.#row(id, `read server '${id}'`);
    if (!row) return null;
    const entry = await this.#check(row);
    const values: Record<string, string> = {};
    for (const secret of row.secrets) {
      if (!(entry.secrets ?? []).includes(secret.name)) continue;
      try {
        values[secret.name] = this.#box().open(secret.value, secretBinding(entry.id, secret.name, entryDestination(entry)));
      } catch (error) {
        throw new RegistrySecretError(entry.id, secret.name, { cause: error });
      }
    }
    return { entry, secretValues: values };
  }

  async #row(id: string, action: string): Promise<Row | null> {
    try {
      return await this.#client.mcpServer.findUnique({ where: { id }, include: { secrets: true } });
    } catch (error) {
      throw toDatabaseError(error, action);
    }
  }

  async #check(row: McpServer): Promise<ServerEntry> {
    const mapped = entryInputFromRow(row);
    if (!mapped.ok) throw new ServerEntryError(mapped.problem, { stored: true, serverId: row.id });
    const verdict = await validateServerEntry(mapped.input, this.#policy());
    if (!verdict.ok) throw new ServerEntryError(verdict.problem, { stored: true, serverId: row.id });
    return verdict.entry;
  }

  async #describe(row: Row): Promise<ServerListing> {
    let entry: ServerEntry;
    try {
      entry = await this.#check(row);
    } catch (error) {
      if (!(error instanceof ServerEntryError)) throw error;
      return { ok: false, id: row.id, name: row.name || null, problem: error.problem, error: error.message };
    }
    const secrets: Record<string, SecretState> = {};
    for (const name of entry.secrets ?? []) {
      const sealed = row.secrets.find((secret) => secret.name === name);
      secrets[name] = !sealed ? "missing" : this.#opens(sealed.value, secretBinding(entry.id, name, entryDestination(entry))) ? "set" : "unreadable";
    }
    return { ok: true, id: row.id, entry, secrets };
  }

  /** The values of a row's secrets that still open for what the row says (used before re-sealing). */
  #openReadable(row: Row): Record<string, string> {
    const values: Record<string, string> = {};
    for (const secret of row.secrets) {
      try {
        values[secret.name] = this.#box().open(secret.value, secretBinding(row.id, secret.name, rowDestination(row)));
      } catch (error) {
        if (!(error instanceof SecretError)) throw error;
      }
    }
    return values;
  }

  #opens(sealed: string, binding: string): boolean {
    try {
      this.#box().open(sealed, binding);
      return true;
    } catch (error) {
      if (error instanceof SecretError) return false;
      throw error;
    }
  }
}

