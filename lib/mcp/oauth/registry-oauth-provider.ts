import { randomBytes } from "node:crypto";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { OAuthStateStore, ServerOAuthState } from "./oauth-state";

export interface RegistryOAuthOptions {
  serverId: string;
  store: OAuthStateStore;
  /** The callback on the app's own origin, e.g. https://switchboard.example/servers/oauth/callback. */
  redirectUrl: string;
  clientName?: string;
  /** A client ID metadata document's https URL: used as the client id where the authorization server supports it; else dynamic registration. */
  clientMetadataUrl?: string;
  /** A client registered by hand at the provider: no registration then. */
  preRegistered?: { clientId: string; clientSecret?: string };
  /** Scopes to ask for when the server names none. */
  scope?: string;
  /**
   * Where the consent page is: the Connect flow sends the person there. In a
   * run there is nobody to consent, so the default refuses and marks the
   * server "reconnect".
   */
  onAuthorizationUrl?: (url: URL) => void | Promise<void>;
  /**
   * Accept authorization-server metadata whose `issuer` differs from where it
   * was found (RFC 8414 §3.3 check off). Security-weakening: only for a
   * server known to publish a mismatched issuer (some 2025-03-26-era servers), set by its owner.
   */
  allowIssuerMismatch?: boolean;
  /** Told of every token handed to or saved by the SDK, so a run can redact them from its trace. */
  onSecret?: (value: string) => void;
}

/**
 * The SDK's OAuth client (discovery of protected-resource and
 * authorization-server metadata, PKCE, client ID metadata documents or
 * dynamic registration, refresh) with Switchboard's storage: one server's
 * state in an OAuthStateStore. The SDK drives the flow; this only keeps
 * and hands back what it saves.
 */
export class RegistryOAuthProvider implements OAuthClientProvider {
  #state: ServerOAuthState | undefined;
  #capture: ((url: URL) => void) | undefined;

  constructor(private readonly options: RegistryOAuthOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get allowIssuerMismatch(): boolean {
    return this.options.allowIssuerMismatch === true;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.preRegistered ? undefined : this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? "Switchboard",
      redirect_uris: [this.options.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.options.preRegistered?.clientSecret ? "client_secret_basic" : "none",
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  /** Loads the stored state once per connection; call before handing the provider to a transport. */
  async load(): Promise<ServerOAuthState> {
    this.#state ??= await this.options.store.load(this.options.serverId);
    return this.#state;
  }

  async state(): Promise<string> {
    const state = await this.load();
    state.state = randomBytes(16).toString("base64url");
    // Refreshing in a run later needs the same redirect URI the authorization was asked with.
    state.redirectUrl = this.options.redirectUrl;
    await this.#save();
    return state.state;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const { preRegistered } = this.options;
    if (preRegistered) return { client_id: preRegistered.clientId, ...(preRegistered.clientSecret ? { client_secret: preRegistered.clientSecret } : {}) } as StoredOAuthClientInformation;
    return (await this.load()).clientInformation;
  }

  async saveClientInformation(information: StoredOAuthClientInformation): Promise<void> {
    (await this.load()).clientInformation = information;
    await this.#save();
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    const tokens = (await this.load()).tokens;
    this.#report(tokens);
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.#report(tokens);
    const state = await this.load();
    state.tokens = tokens;
    state.tokensExpireAt = typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : undefined;
    delete state.needsReconnect;
    await this.#save();
  }

  /** Someone can consent now (serverOAuthFetch with a consent step): the URL goes there instead of refusing. */
  captureAuthorizationUrl(capture: (url: URL) => void): void {
    this.#capture = capture;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.options.onAuthorizationUrl) return this.options.onAuthorizationUrl(authorizationUrl);
    if (this.#capture) return this.#capture(authorizationUrl);
    const state = await this.load();
    state.needsReconnect = "its OAuth authorization expired or was revoked and could not be refreshed; connect it again on the Servers page";
    await this.#save();
    throw new OAuthReconnectNeeded(this.options.serverId, state.needsReconnect);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    (await this.load()).codeVerifier = codeVerifier;
    await this.#save();
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.load()).codeVerifier;
    if (!verifier) throw new Error("no authorization is in progress for this server (no PKCE verifier): start again with Connect");
    return verifier;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    (await this.load()).discoveryState = discovery;
    await this.#save();
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discoveryState;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const state = await this.load();
    if (scope === "all" || scope === "client") delete state.clientInformation;
    if (scope === "all" || scope === "tokens") delete state.tokens;
    if (scope === "all" || scope === "verifier") delete state.codeVerifier;
    if (scope === "all" || scope === "discovery") delete state.discoveryState;
    await this.#save();
  }

  #report(tokens: StoredOAuthTokens | undefined): void {
    if (!tokens || !this.options.onSecret) return;
    for (const value of [tokens.access_token, tokens.refresh_token]) if (value) this.options.onSecret(value);
  }

  async #save(): Promise<void> {
    if (this.#state) await this.options.store.save(this.options.serverId, this.#state);
  }
}

/** A server whose authorization cannot go on without the person: the run's call says "reconnect". */
export class OAuthReconnectNeeded extends Error {
  override name = "OAuthReconnectNeeded";
  readonly code = "oauth-reconnect-needed";
  constructor(
    readonly serverId: string,
    message: string,
  ) {
    super(message);
  }
}
