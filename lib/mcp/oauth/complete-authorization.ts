import { auth, type FetchLike } from "@modelcontextprotocol/client";
import type { RegistryOAuthProvider } from "./registry-oauth-provider";

/** The consent page sent the person back: what came with them on the callback URL. */
export interface AuthorizationCallback {
  code?: string | null;
  state?: string | null;
  iss?: string | null;
  error?: string | null;
  errorDescription?: string | null;
}

/** A callback that cannot finish an authorization: the person's fault or the provider's, in one line. */
export class AuthorizationCallbackError extends Error {
  override name = "AuthorizationCallbackError";
}

/**
 * Finishes an authorization: checks the callback's `state` against the one
 * sent (a mismatch stores nothing), then lets the SDK exchange the code
 * (PKCE verifier, RFC 8707 resource, RFC 9207 issuer check) and save the
 * tokens through the provider. Throws AuthorizationCallbackError in words.
 */
export async function completeAuthorization(provider: RegistryOAuthProvider, callback: AuthorizationCallback, options: { serverUrl: string | URL; fetch?: FetchLike }): Promise<void> {
  if (callback.error) throw new AuthorizationCallbackError(`the provider refused the authorization: ${callback.error}${callback.errorDescription ? ` (${callback.errorDescription})` : ""}`);
  if (!callback.code) throw new AuthorizationCallbackError("the callback carries no authorization code");
  const expected = (await provider.load()).state;
  if (!expected || callback.state !== expected) throw new AuthorizationCallbackError("the callback's state does not match the authorization this app started: nothing was stored; start again with Connect");
  let result: string;
  try {
    result = await auth(provider, { serverUrl: options.serverUrl, authorizationCode: callback.code, ...(callback.iss ? { iss: callback.iss } : {}), fetchFn: options.fetch, skipIssuerMetadataValidation: provider.allowIssuerMismatch });
  } catch (error) {
    throw new AuthorizationCallbackError(`the authorization server's answer could not be used: ${(error as Error).message.split("\n")[0]}`, { cause: error });
  }
  if (result !== "AUTHORIZED") throw new AuthorizationCallbackError("the authorization server did not issue a token");
}
