import "server-only";
import type { CatalogueView, ServerView } from "@/components/servers/server-view";
import type { OAuthConnectionStatus } from "@/lib/db";
import { matchCatalogue, type ParameterSpec, type ServerEntry, type ServerListing, type StdioCatalogue, stdioCatalogueFromEnvironment } from "@/lib/mcp";

/** The machine's stdio catalogue as the server form offers it. */
export function catalogueView(): CatalogueView {
  return catalogueChoices(stdioCatalogueFromEnvironment());
}

/** The catalogue entry and parameters a stored stdio entry stands for, for the edit form. */
export function catalogueChoiceOf(entry: ServerEntry): { catalogue: string; parameters: Record<string, string> } | undefined {
  if (entry.transport !== "stdio") return undefined;
  const match = matchCatalogue(entry, stdioCatalogueFromEnvironment());
  return match.ok ? { catalogue: match.entry.id, parameters: match.parameters } : undefined;
}

/** A registry listing as the pages show it: plain data, secret states and the OAuth connection's status only. */
export function serverView(listing: ServerListing, connections: ReadonlyMap<string, OAuthConnectionStatus> = new Map()): ServerView {
  if (!listing.ok) return { ok: false, id: listing.id, name: listing.name, error: listing.error, field: listing.problem.field, catalogueLine: listing.problem.catalogueLine ?? null };
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

/** The catalogue as the form's choices; an unreadable catalogue offers none (the form says why). */
function catalogueChoices(catalogue: StdioCatalogue): CatalogueView {
  if (!catalogue.ok) return { choices: [], file: catalogue.file, problem: catalogue.problem };
  const choices = catalogue.entries.map((entry) => ({
    id: entry.id,
    title: entry.title,
    description: entry.description ?? null,
    commandLine: [entry.executable ?? entry.command, ...entry.args.map((arg) => arg.replaceAll(/\{\{\s*folder\s*\}\}/g, entry.folder))].join(" "),
    confined: entry.confine ? `bubblewrap: read-only file system${entry.confine.writable.length ? ` (writable: ${entry.confine.writable.join(", ")})` : ""}, ${entry.confine.network === "none" ? "no network" : "the machine's network"}` : null,
    available: entry.executable !== null,
    parameters: Object.entries(entry.parameters).map(([name, spec]) => ({
      name,
      title: spec.title ?? name,
      description: spec.description ?? null,
      hint: parameterHint(spec),
      defaultValue: spec.default === undefined ? "" : String(spec.default),
    })),
    env: Object.entries(entry.env).flatMap(([name, spec]) => (spec.value === undefined ? [{ name, description: spec.description ?? null }] : [])),
    place: entry.place,
  }));
  return { choices, file: catalogue.file, problem: null };
}

function parameterHint(spec: ParameterSpec): string {
  if (spec.type === "integer") return `A whole number${spec.minimum !== undefined ? ` from ${spec.minimum}` : ""}${spec.maximum !== undefined ? ` up to ${spec.maximum}` : ""}.`;
  if (spec.type === "path") return `An absolute path within ${spec.within.join(" or ")}.`;
  if (spec.enum) return `One of ${spec.enum.join(", ")}.`;
  return `Matching ${spec.pattern}.`;
}
