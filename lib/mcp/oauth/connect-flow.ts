import { auth, type FetchLike } from "@modelcontextprotocol/client";
import type { ServerEntry } from "../registry";
import { type AuthorizationCallback, AuthorizationCallbackError, completeAuthorization } from "./complete-authorization";
import { entryOAuth, oauthOf } from "./entry-oauth";
import { oauthFailure } from "./oauth-fetch";
import type { OAuthStateStore } from "./oauth-state";

export interface ConnectFlowOptions {
  store: OAuthStateStore;
  /** The app's own origin: the callback is on it. */
  origin: string;
  /** The guarded fetch (every OAuth URL passes the SSRF rules). */
  fetch: FetchLike;
}

/** What pressing Connect leads to: the provider's consent page (with the `state` to bind to the person's cookie), or nothing more to do. */
export type ConnectStart = { kind: "consent"; authorizationUrl: URL; state: string } | { kind: "connected" };

/**
 * Starts connecting an OAuth server: forgets any token it had (Connect
 * means a new consent), discovers the protected-resource and
 * authorization-server metadata, registers the client where needed, and
 * returns the consent page's URL (PKCE verifier and `state` kept in the
 * store). Throws an Error in one line (OAuthFlowError) when a URL is refused
 * or an answer cannot be used; no token is stored then.
 */
export async function startConnect(entry: ServerEntry, secretValues: Readonly<Record<string, string>>, options: ConnectFlowOptions): Promise<ConnectStart> {
  if (entry.transport === "stdio" || !oauthOf(entry)) throw new AuthorizationCallbackError(`server '${entry.id}' does not use OAuth: choose an OAuth authorization on its form first`);
  let authorizationUrl: URL | undefined;
  const made = await entryOAuth(entry, secretValues, { store: options.store, origin: options.origin, onAuthorizationUrl: (url) => void (authorizationUrl = url) });
  if (made.kind !== "authorization-code") return { kind: "connected" };
  const { provider } = made;
  const { fetch, refusals } = watchedFetch(options.fetch);
  await provider.invalidateCredentials("tokens");
  let result: string;
  try {
    result = await auth(provider, { serverUrl: entry.url, ...(oauthOf(entry)?.scope ? { scope: oauthOf(entry)?.scope } : {}), fetchFn: fetch, skipIssuerMetadataValidation: provider.allowIssuerMismatch });
  } catch (error) {
    await provider.invalidateCredentials("verifier");
    throw oauthFailure(error, refusals[0], entry.url);
  }
  if (result === "AUTHORIZED") return { kind: "connected" };
  const state = (await provider.load()).state;
  if (!authorizationUrl || !state) throw new AuthorizationCallbackError("the authorization server gave no consent page to send you to");
  return { kind: "consent", authorizationUrl, state };
}

/**
 * Finishes connecting after the consent page sent the person back: the
 * callback's `state` must match the one kept (and the caller has checked it
 * against the person's cookie); the code is exchanged with the PKCE
 * verifier and the tokens are sealed in the store. On any failure the
 * authorization in progress is dropped and no token is stored.
 */
export async function finishConnect(entry: ServerEntry, secretValues: Readonly<Record<string, string>>, callback: AuthorizationCallback, options: ConnectFlowOptions): Promise<void> {
  if (entry.transport === "stdio" || !oauthOf(entry)) throw new AuthorizationCallbackError(`server '${entry.id}' does not use OAuth`);
  const made = await entryOAuth(entry, secretValues, { store: options.store, origin: options.origin });
  if (made.kind !== "authorization-code") throw new AuthorizationCallbackError(`server '${entry.id}' uses the client credentials grant: there is no consent to come back from`);
  const { fetch, refusals } = watchedFetch(options.fetch);
  try {
    await completeAuthorization(made.provider, callback, { serverUrl: entry.url, fetch });
  } catch (error) {
    await made.provider.invalidateCredentials("verifier");
    await made.provider.invalidateCredentials("tokens");
    throw oauthFailure(error, refusals[0], entry.url);
  } finally {
    // A state is good for one callback only.
    const state = await made.provider.load();
    if (state.state) {
      delete state.state;
      await options.store.save(entry.id, state);
    }
  }
}

function watchedFetch(fetch: FetchLike): { fetch: FetchLike; refusals: Error[] } {
  const refusals: Error[] = [];
  return {
    refusals,
    fetch: (input, init) =>
      fetch(input, init).catch((error: unknown) => {
        if (error instanceof Error && error.name === "UrlRefusedError") refusals.push(error);
        throw error;
      }),
  };
}
