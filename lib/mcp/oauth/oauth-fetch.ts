import { auth, computeScopeUnion, extractWWWAuthenticateParams, type FetchLike, isStrictScopeSuperset, UnauthorizedError } from "@modelcontextprotocol/client";
import { type AuthorizationCallback, completeAuthorization } from "./complete-authorization";
import type { RegistryOAuthProvider } from "./registry-oauth-provider";

export interface ServerOAuthFetchOptions {
  /** The MCP server's URL (the protected resource). */
  serverUrl: string;
  /**
   * Gets the person's consent for an authorization URL and returns the
   * callback's parameters. Only where someone can consent right now (the
   * conformance driver's headless consent); a run has no one, so without it
   * an authorization that needs consent ends in OAuthReconnectNeeded (the
   * provider marks the server "reconnect").
   */
  consent?: (authorizationUrl: URL) => Promise<AuthorizationCallback>;
}

/**
 * A fetch for one OAuth-protected server: sends the stored access token;
 * on 401 (or 403 insufficient_scope) lets the SDK's `auth()` discover the
 * protected-resource and authorization-server metadata (over `next`, the
 * guarded fetch: every OAuth URL passes the SSRF rules), refresh the token,
 * or start an authorization (PKCE; client ID metadata document or dynamic
 * registration), then asks again once.
 */
export function serverOAuthFetch(provider: RegistryOAuthProvider, unguarded: FetchLike, options: ServerOAuthFetchOptions): FetchLike {
  let consentUrl: URL | undefined;
  // The SDK moves on to fallbacks when a metadata URL fails: a URL the guard refused must still be what the person reads.
  const refusals: Error[] = [];
  const next: FetchLike = (input, init) =>
    unguarded(input, init).catch((error: unknown) => {
      if (error instanceof Error && error.name === "UrlRefusedError") refusals.push(error);
      throw error;
    });
  const send = async (input: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const tokens = await provider.tokens();
    if (tokens) headers.set("Authorization", `Bearer ${tokens.access_token}`);
    return next(input, { ...init, headers });
  };
  const authorize = async (response: Response) => {
    const { resourceMetadataUrl, scope: challenged } = extractWWWAuthenticateParams(response);
    const previous = await provider.tokens();
    const scope = response.status === 403 ? computeScopeUnion(previous?.scope, challenged) : challenged;
    if (response.status === 401) await provider.invalidateCredentials("discovery");
    const base = { serverUrl: options.serverUrl, resourceMetadataUrl, scope, fetchFn: next, skipIssuerMetadataValidation: provider.allowIssuerMismatch };
    consentUrl = undefined;
    const result = await auth(provider, { ...base, forceReauthorization: isStrictScopeSuperset(scope, previous?.scope) });
    if (result === "AUTHORIZED") return;
    if (!consentUrl || !options.consent) throw new UnauthorizedError("the server needs an authorization no one can give now");
    await completeAuthorization(provider, await options.consent(consentUrl), { serverUrl: options.serverUrl, fetch: next });
  };
  if (options.consent) {
    provider.captureAuthorizationUrl((url) => {
      consentUrl = url;
    });
  }
  return async (input, init) => {
    let response = await send(input, init);
    if (response.status !== 401 && !(response.status === 403 && /insufficient_scope/.test(response.headers.get("www-authenticate") ?? ""))) return response;
    refusals.length = 0;
    try {
      await authorize(response);
    } catch (error) {
      throw oauthFailure(error, refusals[0], options.serverUrl);
    }
    response = await send(input, init);
    if (response.status === 401 || response.status === 403) throw new UnauthorizedError(`the server still refuses after authorization (HTTP ${response.status})`);
    return response;
  };
}

/** An OAuth flow that could not finish, in one line: the world's fault (a refused URL, an unusable answer) or a missing consent. */
export class OAuthFlowError extends Error {
  override name = "OAuthFlowError";
}

export function oauthFailure(error: unknown, refusal: Error | undefined, serverUrl: string): Error {
  if (error instanceof Error && (error.name === "OAuthReconnectNeeded" || error.name === "AuthorizationCallbackError")) return error;
  const host = new URL(serverUrl).host;
  if (refusal) return new OAuthFlowError(`OAuth for ${host} refused by the URL guard: ${firstLine(refusal.message)}; nothing was stored`, { cause: error });
  const reason = error instanceof SyntaxError ? `an answer was not JSON (${firstLine(error.message)})` : firstLine(error instanceof Error ? error.message : String(error));
  return new OAuthFlowError(`OAuth for ${host} failed: the authorization server's answer could not be used: ${reason}; nothing was stored`, { cause: error });
}

function firstLine(text: string): string {
  return text.split("\n")[0].trim();
}
