import "server-only";
import { serverRegistry } from "@/app/servers/server-registry";
import type { CanvasServer } from "@/lib/canvas";
import { DatabaseError } from "@/lib/db";
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
    return (await serverRegistry().list()).map(canvasServer);
  } catch (error) {
    // The canvas still opens; every server node then says its server is not in the registry.
    if (error instanceof DatabaseError) return [];
    throw error;
  }
}

export function canvasServer(listing: ServerListing): CanvasServer {
  if (!listing.ok) return { id: listing.id, name: listing.name ?? listing.id, availability: "refused", reason: listing.error };
  const { entry } = listing;
  return {
    id: entry.id,
    name: entry.name,
    ...(entry.description ? { description: entry.description } : {}),
    availability: entry.enabled ? "available" : "disabled",
  };
}
