import type { PrismaClient } from "../generated/prisma/client";
import { credentialsFromEnvironment, type EnvironmentCredentialGate } from "../engine";
import { type CredentialRequirement, normalOrigin } from "../manifest";
import { secretBox, SecretError, type SecretBox } from "../security";
import { toDatabaseError } from "./database-error";
import { parseOrigins } from "./stored-origins";

/** Which fields of a node type's credential are stored: names only, never values. */
export interface CredentialStatus {
  nodeType: string;
  name: string;
  fields: string[];
  /** Origins the person storing it added to the node's declared ones. */
  origins: string[];
  updatedAt: Date;
}

/** A stored credential that cannot be decrypted (the key changed, or the row was altered). */
export class CredentialUnreadableError extends Error {
  override name = "CredentialUnreadableError";
  readonly code = "secret-unreadable";
  constructor(nodeType: string, name: string, options?: { cause?: unknown }) {
    super(`the stored credential '${name}' of node type ${nodeType} cannot be decrypted (the secret key changed or the row was altered); enter it again on the Credentials page`, options);
  }
}

const fieldName = /^[A-Za-z][A-Za-z0-9_]*$/;
const maxValueLength = 8192;

function binding(nodeType: string, name: string): string {
  return `node-credential\u0000${nodeType}\u0000${name}`;
}

/**
 * Node credentials in the database (NodeCredential): each credential's
 * field values sealed together with AES-256-GCM, bound to its node type and
 * name. Write-only from the outside: status() says which fields are set;
 * values are read only to run a node.
 */
export class PrismaCredentialStore {
  readonly #client: PrismaClient;
  readonly #box: () => SecretBox;

  constructor(client: PrismaClient, options: { box?: () => SecretBox } = {}) {
    this.#client = client;
    this.#box = options.box ?? secretBox;
  }

  async status(): Promise<CredentialStatus[]> {
    try {
      const rows = await this.#client.nodeCredential.findMany({ orderBy: [{ nodeType: "asc" }, { name: "asc" }] });
      return rows.map((row) => ({ nodeType: row.nodeType, name: row.name, fields: parseFields(row.fields), origins: parseOrigins(row.origins), updatedAt: row.updatedAt }));
    } catch (error) {
      throw toDatabaseError(error, "list the stored credentials");
    }
  }

  /**
   * Sets fields of a credential; an empty value keeps the stored one.
   * `origins`, when given, replaces the origins added to the node's declared
   * ones. A value or origin that cannot be stored throws RangeError.
   */
  async set(nodeType: string, name: string, values: Readonly<Record<string, string>>, origins?: readonly string[]): Promise<CredentialStatus> {
    const added = origins?.map((origin) => {
      const normal = normalOrigin(origin.trim());
      if (!normal || /[/?#]./.test(origin.trim().replace(/^https?:\/\//, ""))) throw new RangeError(`'${origin}' is not an origin: write a scheme and a host (and port), e.g. https://api.example.com`);
      return normal;
    });
    for (const [field, value] of Object.entries(values)) {
      if (!fieldName.test(field)) throw new RangeError(`'${field}' is not a credential field name`);
      if (value.length > maxValueLength) throw new RangeError(`the value of ${field} is longer than ${maxValueLength} characters`);
    }
    const merged = { ...((await this.#readable(nodeType, name)) ?? {}) };
    for (const [field, value] of Object.entries(values)) if (value) merged[field] = value;
    const fields = Object.keys(merged).sort();
    const data = {
      fields: JSON.stringify(fields),
      value: this.#box().seal(JSON.stringify(merged), binding(nodeType, name)),
      ...(added ? { origins: JSON.stringify([...new Set(added)].sort()) } : {}),
    };
    try {
      const row = await this.#client.nodeCredential.upsert({ where: { nodeType_name: { nodeType, name } }, create: { nodeType, name, ...data }, update: data });
      return { nodeType, name, fields, origins: parseOrigins(row.origins), updatedAt: row.updatedAt };
    } catch (error) {
      throw toDatabaseError(error, `store the credential '${name}' of ${nodeType}`);
    }
  }

  /** The origins added to a credential when it was stored (none when it is not stored). */
  async origins(nodeType: string, name: string): Promise<string[]> {
    try {
      const row = await this.#client.nodeCredential.findUnique({ where: { nodeType_name: { nodeType, name } }, select: { origins: true } });
      return row ? parseOrigins(row.origins) : [];
    } catch (error) {
      throw toDatabaseError(error, `read the origins of the credential '${name}' of ${nodeType}`);
    }
  }

  async clear(nodeType: string, name: string): Promise<boolean> {
    try {
      return (await this.#client.nodeCredential.deleteMany({ where: { nodeType, name } })).count > 0;
    } catch (error) {
      throw toDatabaseError(error, `delete the credential '${name}' of ${nodeType}`);
    }
  }

  /** The stored field values of a credential, or null. Throws CredentialUnreadableError. */
  async values(nodeType: string, name: string): Promise<Record<string, string> | null> {
    let row;
    try {
      row = await this.#client.nodeCredential.findUnique({ where: { nodeType_name: { nodeType, name } } });
    } catch (error) {
      throw toDatabaseError(error, `read the credential '${name}' of ${nodeType}`);
    }
    if (!row) return null;
    try {
      const parsed: unknown = JSON.parse(this.#box().open(row.value, binding(nodeType, name)));
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new SecretError("secret-unreadable", "not an object of fields");
      return Object.fromEntries(Object.entries(parsed).filter((pair): pair is [string, string] => typeof pair[1] === "string"));
    } catch (error) {
      if (error instanceof SecretError || error instanceof SyntaxError) throw new CredentialUnreadableError(nodeType, name, { cause: error });
      throw error;
    }
  }

  /** Values that still open; an unreadable credential counts as empty (it is replaced on set). */
  async #readable(nodeType: string, name: string): Promise<Record<string, string> | null> {
    try {
      return await this.values(nodeType, name);
    } catch (error) {
      if (error instanceof CredentialUnreadableError) return null;
      throw error;
    }
  }
}

function parseFields(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((field): field is string => typeof field === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The engine's `credentials(nodeType, requirements)` backed by the store:
 * stored values first, then SWITCHBOARD_CREDENTIAL_<NAME>_<FIELD> from the
 * server's environment for fields the store does not have, where the
 * engine's gate lets the node type take them. The engine
 * registers every value it gets as a secret, so traces redact them.
 *
 *   createLocalEnvironment({ overrides: { credentials: storedCredentials(new PrismaCredentialStore(prisma())) } })
 */
export function storedCredentials(store: Pick<PrismaCredentialStore, "values">, environment: Readonly<Record<string, string | undefined>> = process.env) {
  return async (nodeType: string, requirements: readonly CredentialRequirement[], environmentAllowed: EnvironmentCredentialGate): Promise<Record<string, Record<string, string>>> => {
    const values = credentialsFromEnvironment(requirements, environment as NodeJS.ProcessEnv, environmentAllowed);
    for (const requirement of requirements) {
      const stored = await store.values(nodeType, requirement.name);
      for (const field of requirement.fields) {
        if (stored?.[field]) (values[requirement.name] ??= {})[field] = stored[field];
      }
    }
    return values;
  };
}

/**
 * The engine's `credentialOrigins(nodeType, name)`: the origins added when
 * the credential was stored, and for one set in the server's environment,
 * SWITCHBOARD_CREDENTIAL_<NAME>_ORIGINS (comma-separated).
 */
export function storedCredentialOrigins(store: Pick<PrismaCredentialStore, "origins">, environment: Readonly<Record<string, string | undefined>> = process.env) {
  return async (nodeType: string, name: string): Promise<string[]> => {
    const fromEnvironment = (environment[`SWITCHBOARD_CREDENTIAL_${name}_ORIGINS`.toUpperCase()] ?? "").split(",").map((item) => normalOrigin(item.trim())).filter((item): item is string => item !== null);
    return [...new Set([...(await store.origins(nodeType, name)), ...fromEnvironment])];
  };
}
