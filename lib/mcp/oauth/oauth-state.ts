import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";

/** What Switchboard keeps of one server's OAuth connection. Tokens and client secrets are secrets: stored encrypted, never traced. */
export interface ServerOAuthState {
  clientInformation?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  /** When the access token expires (ms since epoch), from `expires_in` at the time it was saved. */
  tokensExpireAt?: number;
  /** The PKCE verifier and `state` of an authorization in progress. */
  codeVerifier?: string;
  state?: string;
  discoveryState?: OAuthDiscoveryState;
  /** The callback URL the last Connect used (the app's own origin), kept for refreshing in runs. */
  redirectUrl?: string;
  /** Set when the token cannot be refreshed any more: the person must connect again. */
  needsReconnect?: string;
}

/** Where a server's OAuth state lives (encrypted in the database in the app; in memory in tests and the conformance driver). */
export interface OAuthStateStore {
  load(serverId: string): Promise<ServerOAuthState>;
  save(serverId: string, state: ServerOAuthState): Promise<void>;
}

/** TEST DOUBLE and conformance-driver store: one process's memory. */
export class InMemoryOAuthStateStore implements OAuthStateStore {
  readonly states = new Map<string, ServerOAuthState>();

  async load(serverId: string): Promise<ServerOAuthState> {
    return structuredClone(this.states.get(serverId) ?? {});
  }

  async save(serverId: string, state: ServerOAuthState): Promise<void> {
    this.states.set(serverId, structuredClone(state));
  }
}
