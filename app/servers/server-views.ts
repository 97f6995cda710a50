import "server-only";
import type { ServerView } from "@/components/servers/server-view";
import type { ServerListing } from "@/lib/mcp/registry";

/** A registry listing as the pages show it: plain data, secret states only. */
export function serverView(listing: ServerListing): ServerView {
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
    secrets: Object.entries(listing.secrets).map(([name, state]) => ({ name, state })),
  };
}
