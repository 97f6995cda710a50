import "server-only";
import type { ServerView } from "@/components/servers/server-view";
import type { OAuthConnectionStatus } from "@/lib/db";
import type { ServerListing } from "@/lib/mcp/registry";

/** A registry listing as the pages show it: plain data, secret states and the OAuth connection's status only. */
export function serverView(listing: ServerListing, connections: ReadonlyMap<string, OAuthConnectionStatus> = new Map()): ServerView {
  if (!listing.ok) return { ok: false, id: listing.id, name: listing.name, error: listing.error, field: listing.problem.field };
  const { entry } = listing;
  return {
    ok: true,
    id: entry.id,
    name: entry.name,
    description: entry.description ?? null,
    transport: entry.transport,
    target: entry.transport === "stdio" ? [entry.command, ...entry.args].join(" ") : entry.url,
    enabled: entry.enabled,
    timeoutMs: entry.timeoutMs,
    toolTimeoutMs: entry.toolTimeoutMs ?? null,
    maxRetries: entry.maxRetries,
    maxConcurrentCalls: entry.maxConcurrentCalls ?? null,
    allowedTools: entry.allowedTools ?? [],
    oauth: oauthView(entry, connections.get(entry.id)),
    secrets: Object.entries(listing.secrets).map(([name, state]) => ({ name, state })),
  };
}

function oauthView(entry: Extract<ServerListing, { ok: true }>["entry"], connection: OAuthConnectionStatus | undefined): Extract<ServerView, { ok: true }>["oauth"] {
  if (entry.transport === "stdio" || !entry.oauth) return null;
  // Client credentials need no person: there is nothing to connect or reconnect.
  if (entry.oauth.grant === "client_credentials") return { grant: "client_credentials", status: "connected" };
  return {
    grant: "authorization_code",
    status: connection?.status ?? "not-connected",
    ...(connection?.reason ? { reason: connection.reason } : {}),
    ...(connection?.connectedBy ? { connectedBy: connection.connectedBy } : {}),
  };
}
