import { createHash, randomBytes } from "node:crypto";
import { createLocalJWKSet, errors as joseErrors, type JSONWebKeySet, jwtVerify } from "jose";
import { allowedPrivateOrigins, guardedFetch } from "../../security";

/**
 * Optional OpenID Connect single sign-on: the authorization code flow with
 * PKCE (S256), state and nonce; the ID token checked for issuer, audience,
 * signature (the issuer's JWKS), expiry and nonce. Every request to the
 * issuer goes through the URL guard (private origins only when listed in
 * SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS). jose does the JWT and JWKS work;
 * the flow itself is the few steps below.
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

export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

/** The provider's discovery document (`<issuer>/.well-known/openid-configuration`), checked: its issuer must be the configured one. */
export async function discover(config: OidcConfig): Promise<ProviderMetadata> {
  const document = await getJson(`${config.issuer}/.well-known/openid-configuration`, config);
  const metadata = document as Partial<ProviderMetadata>;
  if (metadata.issuer?.replace(/\/+$/, "") !== config.issuer) {
    throw new OidcSignInError("provider", `the provider's discovery document names the issuer '${String(metadata.issuer)}', not the configured ${config.issuer}`);
  }
  for (const field of ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const) {
    if (typeof metadata[field] !== "string") throw new OidcSignInError("provider", `the provider's discovery document has no ${field}`);
  }
  return metadata as ProviderMetadata;
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

const random = () => randomBytes(32).toString("base64url");

/** The provider's authorization URL and what to keep until the person comes back. */
export function authorizationRequest(config: OidcConfig, metadata: ProviderMetadata, redirectUri: string, next = "/"): { url: string; pending: PendingSignIn } {
  const pending: PendingSignIn = { state: random(), nonce: random(), verifier: random(), next, createdAt: Date.now() };
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("scope", "openid email profile");
  url.searchParams.set("state", pending.state);
  url.searchParams.set("nonce", pending.nonce);
  url.searchParams.set("code_challenge", createHash("sha256").update(pending.verifier).digest("base64url"));
  url.searchParams.set("code_challenge_method", "S256");
  return { url: url.toString(), pending };
}

/** How long a person may take at the provider. */
export const pendingLifetimeMs = 10 * 60 * 1000;

/**
 * The person came back with `query` (code and state, or an error): checks
 * the state against the one kept for this browser, exchanges the code (with
 * the PKCE verifier), and validates the ID token. Answers the verified email.
 */
export async function completeSignIn(
  config: OidcConfig,
  metadata: ProviderMetadata,
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
  const code = query.get("code");
  if (!code) throw new OidcSignInError("provider", `${config.name} sent you back without an authorization code.`);

  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: pending.verifier, client_id: config.clientId });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (config.clientSecret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString("base64")}`;
  const tokens = (await requestJson(metadata.token_endpoint, config, { method: "POST", headers, body: body.toString() })) as { id_token?: unknown; error?: unknown };
  if (typeof tokens.id_token !== "string") throw new OidcSignInError("token", `${config.name} answered without an ID token${tokens.error ? ` (${String(tokens.error)})` : ""}.`);

  const jwks = (await getJson(metadata.jwks_uri, config)) as JSONWebKeySet;
  let claims: Record<string, unknown>;
  try {
    const verified = await jwtVerify(tokens.id_token, createLocalJWKSet(jwks), {
      issuer: metadata.issuer,
      audience: config.clientId,
      currentDate: new Date(now),
      clockTolerance: 60,
      requiredClaims: ["sub", "exp", "iat"],
    });
    claims = verified.payload as Record<string, unknown>;
  } catch (error) {
    throw new OidcSignInError("token", `The ID token from ${config.name} was refused: ${tokenProblem(error)}.`);
  }
  if (claims.nonce !== pending.nonce) throw new OidcSignInError("nonce", `The ID token from ${config.name} was refused: its nonce is not the one this sign-in sent (a replayed or swapped token).`);
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!email) throw new OidcSignInError("email", `${config.name} did not share your email address, so no account can be matched. Allow the email scope.`);
  if (claims.email_verified !== true) throw new OidcSignInError("email", `${config.name} has not verified the email ${email}, so it cannot sign you in.`);
  return { email, subject: String(claims.sub) };
}

function tokenProblem(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "it has expired";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey) return "it is not signed by the issuer's keys";
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `its ${error.claim} claim is not right (${error.reason})`;
  if (error instanceof joseErrors.JOSEError) return error.message;
  return "it could not be read";
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

async function getJson(url: string, config: OidcConfig): Promise<unknown> {
  return requestJson(url, config, { method: "GET", headers: { accept: "application/json" } });
}

async function requestJson(url: string, config: OidcConfig, request: { method: string; headers: Record<string, string>; body?: string }): Promise<unknown> {
  let response;
  try {
    response = await guardedFetch(url, { ...request, allowedOrigins: config.allowedOrigins, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new OidcSignInError("provider", `${config.name} cannot be reached at ${new URL(url).origin}: ${(error as Error).message}`);
  }
  let text = "";
  for await (const chunk of response.body) {
    text += chunk;
    if (text.length > 1_000_000) throw new OidcSignInError("provider", `${config.name} answered more than 1 MB from ${url}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new OidcSignInError("provider", `${config.name} answered ${response.status} from ${url} with something that is not JSON.`);
  }
  if (response.status >= 400 && !(json && typeof json === "object" && "error" in json)) throw new OidcSignInError("provider", `${config.name} answered ${response.status} from ${url}.`);
  return json;
}
