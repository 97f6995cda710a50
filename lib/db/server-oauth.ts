import type { PrismaClient } from "../generated/prisma/client";
import type { OAuthStateStore, ServerOAuthState } from "../mcp";
import { secretBox, SecretError, type SecretBox } from "../security";
import { toDatabaseError } from "./database-error";

/** A server's OAuth connection as the Servers page and the canvas see it: never a token. */
export interface OAuthConnectionStatus {
  serverId: string;
  /** connected: a token is stored; reconnect: it expired and cannot be refreshed; not-connected: nobody has connected it yet. */
  status: "connected" | "reconnect" | "not-connected";
  reason?: string;
  connectedAt?: Date;
  connectedBy?: string;
}

/** What the sealed state is bound to: the server and where it is, so a token never goes to a URL it was not issued for. */
function binding(serverId: string, url: string): string {
  return `mcp-server-oauth\u0000${serverId}\u0000${url}`;
}

export interface PrismaOAuthStateStoreOptions {
  box?: () => SecretBox;
  /** Who is connecting (recorded with the tokens): the signed-in person's email. */
  actor?: string;
}

/**
 * Servers' OAuth state in the database (McpServerOAuth): tokens, the
 * registered client, an authorization in progress, sealed together with
 * AES-256-GCM and bound to the server's id and URL. A state sealed for
 * another URL (the server was edited to point elsewhere) reads as empty:
 * the person connects again rather than a token travelling to a new host.
 */
export class PrismaOAuthStateStore implements OAuthStateStore {
  readonly #client: PrismaClient;
  readonly #box: () => SecretBox;

  constructor(
    client: PrismaClient,
    private readonly options: PrismaOAuthStateStoreOptions = {},
  ) {
    this.#client = client;
    this.#box = options.box ?? secretBox;
  }

  async load(serverId: string): Promise<ServerOAuthState> {
    const row = await this.#read(serverId);
    if (!row?.oauthConnection) return {};
    try {
      return JSON.parse(this.#box().open(row.oauthConnection.value, binding(serverId, row.url ?? ""))) as ServerOAuthState;
    } catch (error) {
      if (error instanceof SecretError || error instanceof SyntaxError) return {};
      throw error;
    }
  }

  async save(serverId: string, state: ServerOAuthState): Promise<void> {
    const row = await this.#read(serverId);
    if (!row) return;
    const value = this.#box().seal(JSON.stringify(state), binding(serverId, row.url ?? ""));
    const tokensChanged = Boolean(state.tokens) && (await this.load(serverId)).tokens?.access_token !== state.tokens?.access_token;
    const data = {
      value,
      needsReconnect: state.needsReconnect ?? null,
      ...(tokensChanged ? { connectedAt: new Date(), ...(this.options.actor ? { connectedBy: this.options.actor } : {}) } : {}),
      ...(state.tokens ? {} : { connectedAt: null }),
    };
    try {
      await this.#client.mcpServerOAuth.upsert({ where: { serverId }, create: { serverId, ...data }, update: data });
    } catch (error) {
      throw toDatabaseError(error, `save the OAuth connection of server '${serverId}'`);
    }
  }

  /** Forgets a server's tokens and registered client ("Disconnect"). */
  async forget(serverId: string): Promise<void> {
    try {
      await this.#client.mcpServerOAuth.deleteMany({ where: { serverId } });
    } catch (error) {
      throw toDatabaseError(error, `forget the OAuth connection of server '${serverId}'`);
    }
  }

  /** Every server's connection status, read without opening anything. */
  async statuses(): Promise<Map<string, OAuthConnectionStatus>> {
    let rows;
    try {
      rows = await this.#client.mcpServerOAuth.findMany({ select: { serverId: true, needsReconnect: true, connectedAt: true, connectedBy: true } });
    } catch (error) {
      throw toDatabaseError(error, "read the servers' OAuth connections");
    }
    return new Map(
      rows.map((row) => [
        row.serverId,
        {
          serverId: row.serverId,
          status: row.needsReconnect ? "reconnect" : row.connectedAt ? "connected" : "not-connected",
          ...(row.needsReconnect ? { reason: row.needsReconnect } : {}),
          ...(row.connectedAt ? { connectedAt: row.connectedAt } : {}),
          ...(row.connectedBy ? { connectedBy: row.connectedBy } : {}),
        },
      ]),
    );
  }

  async #read(serverId: string) {
    try {
      return await this.#client.mcpServer.findUnique({ where: { id: serverId }, select: { url: true, oauthConnection: { select: { value: true } } } });
    } catch (error) {
      throw toDatabaseError(error, `read the OAuth connection of server '${serverId}'`);
    }
  }
}
