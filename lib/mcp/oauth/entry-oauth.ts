import { ClientCredentialsProvider, type OAuthClientProvider } from "@modelcontextprotocol/client";
import type { RemoteServerEntry, ServerEntry } from "../registry";
import { appOrigin } from "./app-origin";
import type { OAuthStateStore } from "./oauth-state";
import { RegistryOAuthProvider, type RegistryOAuthOptions } from "./registry-oauth-provider";

/** Where the app is reached, for the OAuth callback and its client ID metadata document. */
export interface OAuthAppOrigin {
  /** e.g. https://switchboard.example (no trailing slash). */
  origin: string;
}

/** The callback route on the app's own origin (app/servers/oauth/callback). */
export function oauthCallbackUrl(origin: string): string {
  return `${origin}/servers/oauth/callback`;
}

/**
 * The app's client ID metadata document URL (app/oauth/client-metadata.json),
 * only on an https origin: the document's URL is the client id, and an
 * authorization server fetches it, so it must be https and public. On
 * http (a local install) the client registers dynamically instead.
 */
export function clientMetadataDocumentUrl(origin: string): string | undefined {
  return origin.startsWith("https://") ? `${origin}/oauth/client-metadata.json` : undefined;
}

export interface EntryOAuthSettings {
  store: OAuthStateStore;
  /** The app's origin now (the Connect flow); a run uses the one the last Connect stored. */
  origin?: string;
  onSecret?: (value: string) => void;
  onAuthorizationUrl?: RegistryOAuthOptions["onAuthorizationUrl"];
}

export type EntryOAuth = { kind: "authorization-code"; provider: RegistryOAuthProvider } | { kind: "client-credentials"; authProvider: OAuthClientProvider } | { kind: "none" };

/** Whether an entry uses OAuth, and which grant. */
export function oauthOf(entry: ServerEntry): RemoteServerEntry["oauth"] | undefined {
  return entry.transport === "stdio" ? undefined : entry.oauth;
}

/**
 * The OAuth client of one registry entry: for `authorization_code`, the
 * registry provider over the stored state (pre-registered client id and
 * secret when the entry names them, else client ID metadata document or
 * dynamic registration); for `client_credentials`, the SDK's client
 * credentials provider with the entry's id and secret.
 */
export async function entryOAuth(entry: ServerEntry, secretValues: Readonly<Record<string, string>>, settings: EntryOAuthSettings): Promise<EntryOAuth> {
  const oauth = oauthOf(entry);
  if (!oauth) return { kind: "none" };
  const clientSecret = oauth.clientSecret ? secretValues[oauth.clientSecret] : undefined;
  if (oauth.grant === "client_credentials") {
    for (const value of [clientSecret]) if (value) settings.onSecret?.(value);
    return {
      kind: "client-credentials",
      authProvider: new ClientCredentialsProvider({ clientId: oauth.clientId ?? "", clientSecret: clientSecret ?? "", clientName: "Switchboard", ...(oauth.scope ? { scope: oauth.scope } : {}) }),
    };
  }
  const stored = await settings.store.load(entry.id);
  // A run or a tool listing has no request to take an origin from: the app's configured address, so a
  // client registered then carries the callback the person's Connect will use.
  const origin = settings.origin ?? (stored.redirectUrl ? new URL(stored.redirectUrl).origin : (appOrigin() ?? "http://localhost"));
  if (clientSecret) settings.onSecret?.(clientSecret);
  const clientMetadataUrl = clientMetadataDocumentUrl(origin);
  const provider = new RegistryOAuthProvider({
    serverId: entry.id,
    store: settings.store,
    redirectUrl: oauthCallbackUrl(origin),
    clientName: "Switchboard",
    ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    ...(oauth.clientId ? { preRegistered: { clientId: oauth.clientId, ...(clientSecret ? { clientSecret } : {}) } } : {}),
    ...(oauth.scope ? { scope: oauth.scope } : {}),
    ...(oauth.allowIssuerMismatch ? { allowIssuerMismatch: true } : {}),
    onSecret: settings.onSecret,
    onAuthorizationUrl: settings.onAuthorizationUrl,
  });
  return { kind: "authorization-code", provider };
}
