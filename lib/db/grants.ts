import type { PrismaClient, WorkflowGrant } from "../generated/prisma/client";
import { credentialGrantKey, type EngineEnvironment, type WorkflowGrants } from "../engine";
import { PrismaCredentialStore, storedCredentialOrigins, storedCredentials } from "./credentials";
import { normalOrigin } from "../manifest";
import { parseOrigins } from "./stored-origins";
import { toDatabaseError } from "./database-error";

/** `approval`: an owner let this workflow's document loosen a server's approval default for one tool (`server/tool`) or all of them (`server/*`). */
/** `environment`: an owner let a node type that is not first-party take a credential set in the server's environment (`<node type>/<name>`). */
export type GrantKind = "server" | "credential" | "approval" | "environment";

const grantKinds: readonly GrantKind[] = ["server", "credential", "approval", "environment"];

/** One grant as pages show it. */
export interface GrantRecord {
  workflowId: string;
  kind: GrantKind;
  /** A server id, `<node type>/<credential name>`, or `<server>/<tool>` (`<server>/*`) for an approval loosening. */
  resource: string;
  /** Origins approved for this workflow beyond the credential's own. */
  origins: string[];
  grantedBy: string;
  grantedAt: Date;
}

/**
 * The grants of each workflow (WorkflowGrant): which registry servers and
 * stored credentials it may use, and, for a credential, which extra origins
 * its owner approved. Granting twice keeps the first grant; approving an
 * origin grants the credential if it was not yet.
 */
export class PrismaGrantStore {
  readonly #client: PrismaClient;

  constructor(client: PrismaClient) {
    this.#client = client;
  }

  async list(workflowId: string): Promise<GrantRecord[]> {
    try {
      const rows = await this.#client.workflowGrant.findMany({ where: { workflowId }, orderBy: [{ kind: "desc" }, { resource: "asc" }] });
      return rows.map(record);
    } catch (error) {
      throw toDatabaseError(error, `list the grants of workflow '${workflowId}'`);
    }
  }

  /** What the engine checks a run of the workflow against. */
  async forRun(workflowId: string): Promise<WorkflowGrants> {
    const grants = await this.list(workflowId);
    return {
      servers: new Set(grants.filter((grant) => grant.kind === "server").map((grant) => grant.resource)),
      credentials: new Map(grants.filter((grant) => grant.kind === "credential").map((grant) => [grant.resource, grant.origins])),
      approvals: new Set(grants.filter((grant) => grant.kind === "approval").map((grant) => grant.resource)),
      environmentCredentials: new Set(grants.filter((grant) => grant.kind === "environment").map((grant) => grant.resource)),
    };
  }

  async grant(workflowId: string, kind: GrantKind, resource: string, grantedBy: string): Promise<GrantRecord> {
    try {
      const row = await this.#client.workflowGrant.upsert({
        where: { workflowId_kind_resource: { workflowId, kind, resource } },
        create: { workflowId, kind, resource, grantedBy },
        update: {},
      });
      return record(row);
    } catch (error) {
      throw toDatabaseError(error, `grant ${kind} '${resource}' to workflow '${workflowId}'`);
    }
  }

  async revoke(workflowId: string, kind: GrantKind, resource: string): Promise<boolean> {
    try {
      return (await this.#client.workflowGrant.deleteMany({ where: { workflowId, kind, resource } })).count > 0;
    } catch (error) {
      throw toDatabaseError(error, `revoke ${kind} '${resource}' from workflow '${workflowId}'`);
    }
  }

  /** Lets this workflow send a credential to one more origin (and grants the credential). Throws RangeError for a text that is not an origin. */
  async approveOrigin(workflowId: string, nodeType: string, name: string, origin: string, approvedBy: string): Promise<GrantRecord> {
    const normal = normalOrigin(origin);
    if (!normal) throw new RangeError(`'${origin}' is not an http(s) origin`);
    const resource = credentialGrantKey(nodeType, name);
    const current = (await this.list(workflowId)).find((grant) => grant.kind === "credential" && grant.resource === resource);
    const origins = JSON.stringify([...new Set([...(current?.origins ?? []), normal])].sort());
    try {
      const row = await this.#client.workflowGrant.upsert({
        where: { workflowId_kind_resource: { workflowId, kind: "credential", resource } },
        create: { workflowId, kind: "credential", resource, origins, grantedBy: approvedBy },
        update: { origins },
      });
      return record(row);
    } catch (error) {
      throw toDatabaseError(error, `approve ${normal} for the credential '${name}' of ${nodeType} in workflow '${workflowId}'`);
    }
  }
}

function record(row: WorkflowGrant): GrantRecord {
  // A kind this version does not know reads as a server grant of a server that is not there: it grants nothing.
  return { workflowId: row.workflowId, kind: grantKinds.find((kind) => kind === row.kind) ?? "server", resource: row.resource, origins: parseOrigins(row.origins), grantedBy: row.grantedBy, grantedAt: row.grantedAt };
}


/**
 * What a run's environment reads from the database besides servers: stored
 * credentials (then SWITCHBOARD_CREDENTIAL_* variables), the origins added
 * to them, and — for a run of a saved workflow — that workflow's grants.
 * A run with no workflow (none in the app) checks no grants.
 */
export async function storedRunParts(client: PrismaClient, workflowId: string | null): Promise<Pick<EngineEnvironment, "credentials" | "credentialOrigins" | "grants">> {
  const store = new PrismaCredentialStore(client);
  return {
    credentials: storedCredentials(store),
    credentialOrigins: storedCredentialOrigins(store),
    ...(workflowId ? { grants: await new PrismaGrantStore(client).forRun(workflowId) } : {}),
  };
}
