import "server-only";
import { serverRegistry } from "@/app/servers/server-registry";
import type { CanvasServer } from "@/lib/canvas";
import { DatabaseError } from "@/lib/db";
import type { ServerListing } from "@/lib/mcp/registry";
import { grantStore } from "./grants/grant-store";

/**
 * The registry's servers as the canvas gets them: id, name and whether this
 * workflow can use them, never a command, URL or secret. A server this
 * workflow was not granted is `availability: "not-granted"`; the canvas
 * shows it on the node, with a Grant button for people who may grant.
 */
export async function canvasServers(workflowId: string): Promise<CanvasServer[]> {
  try {
    const [listings, grants] = await Promise.all([serverRegistry().list(), grantStore().forRun(workflowId)]);
    return listings.map((listing) => canvasServer(listing, grants.servers));
  } catch (error) {
    // The canvas still opens; every server node then says its server is not in the registry.
    if (error instanceof DatabaseError) return [];
    throw error;
  }
}

export function canvasServer(listing: ServerListing, granted: ReadonlySet<string>): CanvasServer {
  if (!listing.ok) return { id: listing.id, name: listing.name ?? listing.id, availability: "refused", reason: listing.error };
  const { entry } = listing;
  const availability = !entry.enabled ? "disabled" : granted.has(entry.id) ? "available" : "not-granted";
  return {
    id: entry.id,
    name: entry.name,
    ...(entry.description ? { description: entry.description } : {}),
    availability,
    ...(availability === "not-granted" ? { reason: "no one has granted it to this workflow yet" } : {}),
  };
}
