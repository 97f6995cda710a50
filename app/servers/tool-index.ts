import "server-only";
import { listEntryTools, processToolIndex, ToolIndex } from "@/lib/mcp";
import { oauthStore } from "./oauth/oauth-connection";
import { serverRegistry } from "./server-registry";

/** Names older than this are listed again in the background when a canvas page asks for them. */
const refreshAfterMs = 10 * 60_000;
/** A server that could not be listed (down, or its secret missing) is not waited for by the next pages for a minute. */
const retryFailedAfterMs = 60_000;

/** The web process's index of registered servers' tool names (lib/mcp/tool-index.ts), listing them as "List tools" does. */
export function toolIndex(): ToolIndex {
  return processToolIndex(() => new ToolIndex(listToolNames, { refreshAfterMs, retryFailedAfterMs }))!;
}

/** Connects to the server as "List tools" does and keeps the names of the tools it can offer. */
async function listToolNames(serverId: string): Promise<string[]> {
  const resolved = await serverRegistry().resolve(serverId);
  if (!resolved) return [];
  const tools = await listEntryTools(resolved.entry, { secretValues: resolved.secretValues, oauthStore: oauthStore() });
  return tools.filter((tool) => !tool.problem).map((tool) => tool.name);
}
