import "server-only";
import { serverRegistry } from "@/app/servers/server-registry";
import type { CanvasServer } from "@/lib/canvas";
import { DatabaseError, type OAuthConnectionStatus } from "@/lib/db";
import { oauthStore } from "@/app/servers/oauth/oauth-connection";
import { entryFingerprint, type ServerListing } from "@/lib/mcp";
import { toolIndex } from "@/app/servers/tool-index";
import { grantStore } from "./grants/grant-store";

/** How long a page waits for servers the tool index has not listed yet (after a restart, a new server); longer listings serve the next page. */
const toolIndexWaitMs = 2_500;

/**
 * The registry's servers as the canvas gets them: id, name and whether this
 * workflow can use them, never a command, URL or secret. A server this
 * workflow was not granted is `availability: "not-granted"`; the canvas
 * shows it on the node, with a Grant button for people who may grant.
 */
export async function canvasServers(workflowId: string, options: { toolNames: boolean } = { toolNames: false }): Promise<CanvasServer[]> {
  try {
    const [listings, connections, grants] = await Promise.all([serverRegistry().list(), oauthStore().statuses(), grantStore().forRun(workflowId)]);
    const servers = listings.map((listing) => canvasServer(listing, grants.servers, connections));
    return options.toolNames ? withToolNames(servers, listings) : servers;
  } catch (error) {
    // The canvas still opens; every server node then says its server is not in the registry.
    if (error instanceof DatabaseError) return [];
    throw error;
  }
}

export function canvasServer(listing: ServerListing, granted: ReadonlySet<string>, connections: ReadonlyMap<string, OAuthConnectionStatus> = new Map()): CanvasServer {
  if (!listing.ok) return { id: listing.id, name: listing.name ?? listing.id, availability: "refused", reason: listing.error };
  const { entry } = listing;
  return {
    id: entry.id,
    name: entry.name,
    ...(entry.description ? { description: entry.description } : {}),
    ...(entry.approval ? { approval: entry.approval } : {}),
    ...availabilityOf(entry, granted.has(entry.id), connections.get(entry.id)),
  };
}

/** Switched off first; then not granted to this workflow; then an OAuth server nobody has connected, or whose authorization ran out, needs a person before a run can use it. */
function availabilityOf(entry: Extract<ServerListing, { ok: true }>["entry"], granted: boolean, connection: OAuthConnectionStatus | undefined): Pick<CanvasServer, "availability" | "reason"> {
  if (!entry.enabled) return { availability: "disabled" };
  if (!granted) return { availability: "not-granted", reason: "no one has granted it to this workflow yet" };
  const usesConsent = entry.transport !== "stdio" && entry.oauth?.grant === "authorization_code";
  if (usesConsent && connection?.status !== "connected") {
    return { availability: "reconnect", reason: connection?.reason ?? "nobody has connected it yet" };
  }
  return { availability: "available" };
}

/**
 * The palette's tool search: each server the palette offers gets its tools'
 * names from the tool index, so a tool's name finds its server from the
 * first keystroke, with no listing after the page loads.
 */
async function withToolNames(servers: CanvasServer[], listings: readonly ServerListing[]): Promise<CanvasServer[]> {
  const offered = new Set(servers.filter((server) => server.availability === "available" || server.availability === "not-granted").map((server) => server.id));
  const indexed = listings.flatMap((listing) => (listing.ok && offered.has(listing.id) ? [{ id: listing.id, fingerprint: entryFingerprint(listing.entry) }] : []));
  const names = await toolIndex().lookup(indexed, toolIndexWaitMs);
  return servers.map((server) => {
    const toolNames = names.get(server.id);
    return toolNames ? { ...server, toolNames } : server;
  });
}
