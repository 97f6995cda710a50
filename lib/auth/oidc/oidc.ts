import { createHash } from "node:crypto";
import * as client from "openid-client";
import { allowedPrivateOrigins, guardedFetch } from "../../security";

/**
 * Optional OpenID Connect single sign-on: the authorization code flow with
 * PKCE (S256), state and nonce; the ID token checked for issuer, audience,
 * signature (the issuer's JWKS), expiry and nonce. Every request to the
 * issuer goes through the URL guard (private origins only when listed in
 * SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS). The flow and every check are
 * openid-client's; its requests go through the guard and its failures are
 * said in words a person can act on.
 */

type Environment = Readonly<Record<string, string | undefined>>;

export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone); present: sent as client_secret_basic. */
  clientSecret?: string;
  /** The provider's name on the sign-in button ("Sign in with <name>"). */
  name: string;
  /** SWITCHBOARD_OIDC_AUTO_CREATE_VIEWERS=true: an unknown verified email becomes a viewer instead of being refused. */
  autoCreateViewers: boolean;
  /** Private origins the issuer may be at (SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS). */
  allowedOrigins: string[];
}

/** The settings, or null when single sign-on is not configured; a half-done configuration throws with what is missing. */
export function oidcConfig(environment: Environment = process.env): OidcConfig | null {
  const issuer = environment.SWITCHBOARD_OIDC_ISSUER?.trim();
  const clientId = environment.SWITCHBOARD_OIDC_CLIENT_ID?.trim();
  if (!issuer && !clientId) return null;
  if (!issuer || !clientId) throw new OidcSettingsError(`single sign-on needs both SWITCHBOARD_OIDC_ISSUER and SWITCHBOARD_OIDC_CLIENT_ID; ${issuer ? "the client id" : "the issuer URL"} is missing`);
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new OidcSettingsError(`SWITCHBOARD_OIDC_ISSUER is not a URL: '${issuer}'`);
  }
  const allowedOrigins = allowedPrivateOrigins(environment);
  // The client secret and the code travel to the issuer: plain http only for an origin the operator listed (a local provider).
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowedOrigins.includes(url.origin))) {
    throw new OidcSettingsError(`SWITCHBOARD_OIDC_ISSUER must be an https URL, not '${issuer}' (http only for an origin listed in SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS)`);
  }
  return {
    issuer: issuer.replace(/\/+$/, ""),
    clientId,
    clientSecret: environment.SWITCHBOARD_OIDC_CLIENT_SECRET?.trim() || undefined,
    name: environment.SWITCHBOARD_OIDC_NAME?.trim() || "single sign-on",
    autoCreateViewers: environment.SWITCHBOARD_OIDC_AUTO_CREATE_VIEWERS === "true",
    allowedOrigins,
  };
}

/** One start-up line: single sign-on on (with which issuer), or what its settings lack. */
export function reportOidcSettings(log: (line: string) => void, environment: Environment = process.env): void {
  try {
    const config = oidcConfig(environment);
    if (config) log(`single sign-on with ${config.name} (${config.issuer})${config.autoCreateViewers ? "; unknown verified emails become viewers" : ""}`);
  } catch (error) {
    if (error instanceof OidcSettingsError) log(`single sign-on is off: ${error.message}`);
    else throw error;
  }
}

export class OidcSettingsError extends Error {
  override name = "OidcSettingsError";
}

/** Why a sign-in failed, as the person reads it (never a stack trace, never a token). */
export class OidcSignInError extends Error {
  override name = "OidcSignInError";
  constructor(
    readonly code: "provider" | "state" | "nonce" | "token" | "email" | "unknown-email" | "denied",
    message: string,
  ) {
    super(message);
  }
}

/** The provider as discovered: its metadata and this app's client, ready for the flow. */
export type Provider = client.Configuration;

/**
 * The provider's discovery document (`<issuer>/.well-known/openid-configuration`),
 * read through the URL guard and checked by openid-client: its issuer must be
 * the configured one.
 */
export async function discover(config: OidcConfig): Promise<Provider> {
  const authentication = config.clientSecret ? client.ClientSecretBasic(config.clientSecret) : client.None();
  const insecure = new URL(config.issuer).protocol === "http:";
  try {
    return await client.discovery(new URL(config.issuer), config.clientId, { [client.clockTolerance]: 60 }, authentication, {
      [client.customFetch]: guardedClientFetch(config),
      // The ID token's signature is checked against the issuer's keys even though it comes straight from the token
      // endpoint (openid-client would trust TLS alone there). Plain http only reaches here for an origin the operator
      // listed (oidcConfig refuses any other).
      execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])],
      timeout: 10,
    });
  } catch (error) {
    throw signInError(error, config, (problem) => new OidcSignInError("provider", `the provider's discovery document was refused: ${problem}`));
  }
}

/** What the app keeps between sending the person to the provider and their return: never sent to the provider except as hashes and echoes. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** Where to go after signing in (a path of this app). */
  next: string;
  createdAt: number;
}

/** The provider's authorization URL and what to keep until the person comes back. */
export function authorizationRequest(config: OidcConfig, provider: Provider, redirectUri: string, next = "/"): { url: string; pending: PendingSignIn } {
  const pending: PendingSignIn = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), next, createdAt: Date.now() };
  const url = client.buildAuthorizationUrl(provider, {
    redirect_uri: redirectUri,
    scope: "openid email profile",
    state: pending.state,
    nonce: pending.nonce,
    // S256 of the verifier (RFC 7636), worked out here so building the URL stays synchronous.
    code_challenge: createHash("sha256").update(pending.verifier).digest("base64url"),
    code_challenge_method: "S256",
  });
  return { url: url.toString(), pending };
}

/** How long a person may take at the provider. */
export const pendingLifetimeMs = 10 * 60 * 1000;

/**
 * The person came back with `query` (code and state, or an error): checks
 * the state against the one kept for this browser, then openid-client
 * exchanges the code (with the PKCE verifier) and validates the ID token
 * (signature against the issuer's keys, issuer, audience, expiry, nonce).
 * Answers the verified email.
 */
export async function completeSignIn(
  config: OidcConfig,
  provider: Provider,
  redirectUri: string,
  pending: PendingSignIn | null,
  query: URLSearchParams,
  now = Date.now(),
): Promise<{ email: string; subject: string }> {
  // The state first: a link anyone can make (`?error=…&error_description=…`) must not put its words on the sign-in page.
  const state = query.get("state");
  if (!pending || !state || state !== pending.state) throw new OidcSignInError("state", "This sign-in link does not belong to this browser (its state does not match). Start again from the sign-in page.");
  if (query.get("error")) throw new OidcSignInError("denied", `${config.name} did not sign you in: ${query.get("error_description") || query.get("error")}`);
  if (now - pending.createdAt > pendingLifetimeMs) throw new OidcSignInError("state", "The sign-in took longer than 10 minutes. Start again from the sign-in page.");
  if (!query.get("code")) throw new OidcSignInError("provider", `${config.name} sent you back without an authorization code.`);

  const back = new URL(redirectUri);
  back.search = query.toString();
  let claims: client.IDToken | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(provider, back, { pkceCodeVerifier: pending.verifier, expectedNonce: pending.nonce, expectedState: pending.state, idTokenExpected: true });
    claims = tokens.claims();
  } catch (error) {
    throw signInError(error, config, (problem, claim) =>
      claim === "nonce"
        ? new OidcSignInError("nonce", `The ID token from ${config.name} was refused: its nonce is not the one this sign-in sent (a replayed or swapped token).`)
        : new OidcSignInError("token", `The ID token from ${config.name} was refused: ${problem}.`),
    );
  }
  if (!claims) throw new OidcSignInError("token", `${config.name} answered without an ID token.`);
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!email) throw new OidcSignInError("email", `${config.name} did not share your email address, so no account can be matched. Allow the email scope.`);
  if (claims.email_verified !== true) throw new OidcSignInError("email", `${config.name} has not verified the email ${email}, so it cannot sign you in.`);
  return { email, subject: String(claims.sub) };
}

/**
 * openid-client's failure in words a person can act on: our own refusals
 * (the URL guard, a body too large) as they are; the provider's OAuth error
 * (`invalid_grant`) named; an ID token's failed check said by what it is.
 */
function signInError(error: unknown, config: OidcConfig, wrap: (problem: string, claim?: string) => OidcSignInError): OidcSignInError {
  const inner = error instanceof client.ClientError ? error.cause : error;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) if (cause instanceof OidcSignInError) return cause;
  if (error instanceof client.ResponseBodyError) return new OidcSignInError("token", `${config.name} refused the sign-in: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}.`);
  if (error instanceof client.AuthorizationResponseError) return new OidcSignInError("denied", `${config.name} did not sign you in: ${error.error_description || error.error}`);
  const code = error instanceof client.ClientError ? error.code : undefined;
  const detail = (inner as { cause?: { claim?: unknown } } | undefined)?.cause;
  const claim = typeof detail?.claim === "string" ? detail.claim : undefined;
  const message = inner instanceof Error ? inner.message : String(inner);
  if (code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED" && claim === "exp") return wrap("it has expired", claim);
  if (code === "OAUTH_KEY_SELECTION_FAILED" || message === "JWT signature verification failed") return wrap("it is not signed by the issuer's keys");
  if (code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED" || code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED") return wrap(`its ${claim ?? "claims"} claim is not right (${message})`, claim);
  return wrap(message);
}

/**
 * openid-client's requests, made through the URL guard (private origins
 * only when listed) with a 1 MB cap on what is read back, and answered as
 * the Fetch API's Response it expects.
 */
function guardedClientFetch(config: OidcConfig): client.CustomFetch {
  return async (url, options) => {
    let response;
    try {
      const body = options.body === undefined || options.body === null ? undefined : typeof options.body === "string" ? options.body : options.body instanceof URLSearchParams ? options.body.toString() : Buffer.from(options.body as ArrayBuffer);
      response = await guardedFetch(url, { method: options.method, headers: Object.fromEntries(new Headers(options.headers as HeadersInit).entries()), body, allowedOrigins: config.allowedOrigins, signal: options.signal ?? AbortSignal.timeout(10_000) });
    } catch (error) {
      throw new OidcSignInError("provider", `${config.name} cannot be reached at ${new URL(url).origin}: ${(error as Error).message}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > 1_000_000) {
        response.body.destroy();
        throw new OidcSignInError("provider", `${config.name} answered more than 1 MB from ${url}.`);
      }
      chunks.push(chunk);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
    }
    return new Response(response.status === 204 || response.status === 304 ? null : Buffer.concat(chunks), { status: response.status, headers });
  };
}

/** The app's accounts as single sign-on uses them. */
export interface SsoAccounts {
  findForSignIn(email: string): Promise<{ id: string; email: string } | null>;
  createUser(input: { email: string; role: "viewer"; passwordHash: string; createdBy?: string }): Promise<{ id: string; email: string } | null>;
}

/**
 * The account of a verified email: an existing one (an owner added the
 * person), else a new viewer when SWITCHBOARD_OIDC_AUTO_CREATE_VIEWERS is
 * on, else refused. A created account has no usable password (it signs in
 * through the provider only, until an owner sets one).
 */
export async function accountForEmail(accounts: SsoAccounts, config: OidcConfig, email: string): Promise<{ id: string; email: string; created: boolean }> {
  const found = await accounts.findForSignIn(email);
  if (found) return { ...found, created: false };
  if (!config.autoCreateViewers) {
    throw new OidcSignInError("unknown-email", `${email} has no account here. Ask an owner to add you on the People page; then sign in with ${config.name} again.`);
  }
  const created = await accounts.createUser({ email, role: "viewer", passwordHash: "sso-only$no-password", createdBy: `single sign-on (${config.name})` });
  const account = created ?? (await accounts.findForSignIn(email));
  if (!account) throw new OidcSignInError("unknown-email", `The account for ${email} could not be created.`);
  return { ...account, created: Boolean(created) };
}
