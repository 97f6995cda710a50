import "server-only";
import { serverRegistry } from "@/app/servers/server-registry";
import type { CanvasServer } from "@/lib/canvas";
import { DatabaseError, type OAuthConnectionStatus } from "@/lib/db";
import { oauthStore } from "@/app/servers/oauth/oauth-connection";
import type { ServerListing } from "@/lib/mcp/registry";

/**
 * The registry's servers as the canvas gets them: id, name and whether this
 * workflow can use them, never a command, URL or secret. This is where a
 * per-workflow grant check goes once accounts exist: a server the workflow
 * is not granted becomes `availability: "not-granted"` with the reason, and
 * the canvas shows it on the node like a disabled one.
 */
export async function canvasServers(): Promise<CanvasServer[]> {
  try {
    const [listings, connections] = await Promise.all([serverRegistry().list(), oauthStore().statuses()]);
    return listings.map((listing) => canvasServer(listing, connections));
  } catch (error) {
    // The canvas still opens; every server node then says its server is not in the registry.
    if (error instanceof DatabaseError) return [];
    throw error;
  }
}

export function canvasServer(listing: ServerListing, connections: ReadonlyMap<string, OAuthConnectionStatus> = new Map()): CanvasServer {
  if (!listing.ok) return { id: listing.id, name: listing.name ?? listing.id, availability: "refused", reason: listing.error };
  const { entry } = listing;
  return {
    id: entry.id,
    name: entry.name,
    ...(entry.description ? { description: entry.description } : {}),
    ...availabilityOf(entry, connections.get(entry.id)),
  };
}

/** Switched off first; then an OAuth server nobody has connected, or whose authorization ran out, needs a person before a run can use it. */
function availabilityOf(entry: Extract<ServerListing, { ok: true }>["entry"], connection: OAuthConnectionStatus | undefined): Pick<CanvasServer, "availability" | "reason"> {
  if (!entry.enabled) return { availability: "disabled" };
  const usesConsent = entry.transport !== "stdio" && entry.oauth?.grant === "authorization_code";
  if (usesConsent && connection?.status !== "connected") {
    return { availability: "reconnect", reason: connection?.reason ?? "nobody has connected it yet" };
  }
  return { availability: "available" };
}
