import type { EntryProblem } from "./entry-problem";
import { secretReferences } from "./secret-references";
import type { ServerEntry } from "./server-entry";

export const maxSecretLength = 8192;

/** New secret values are for secrets the entry lists, non-empty, and fit where they are used. */
export function checkSecretValues(entry: ServerEntry, values: Readonly<Record<string, string>>): EntryProblem | null {
  const declared = new Set(entry.secrets ?? []);
  const inHeaders = new Set("headers" in entry ? Object.values(entry.headers ?? {}).flatMap(secretReferences) : []);
  for (const [name, value] of Object.entries(values)) {
    const field = `secrets.${name}`;
    if (!declared.has(name)) return { field, message: `${name} is not one of the server's secrets; add it to its secrets first` };
    if (typeof value !== "string" || value === "") return { field, message: `the value of ${name} is empty` };
    if (value.length > maxSecretLength) return { field, message: `the value of ${name} is longer than ${maxSecretLength} characters` };
    if (inHeaders.has(name) && /[\r\n\0]/.test(value)) return { field, message: `${name} is used in a header, so its value cannot contain line breaks` };
  }
  return null;
}

/** Where a server is: its command and arguments, or its URL. Secrets are bound to it. */
export interface ServerDestination {
  transport: string;
  command?: string | null;
  args?: unknown;
  url?: string | null;
}

export function entryDestination(entry: ServerEntry): ServerDestination {
  return entry.transport === "stdio" ? { transport: "stdio", command: entry.command, args: entry.args, url: null } : { transport: entry.transport, command: null, args: [], url: entry.url };
}

function destinationKey(destination: ServerDestination): string {
  const where = destination.transport === "stdio" ? [destination.transport, destination.command ?? "", destination.args ?? []] : [destination.transport, destination.url ?? ""];
  return JSON.stringify(where);
}

/**
 * The stored values kept after a save: those of names still listed, replaced
 * by any new ones. When the save sends the server somewhere new (another
 * command or URL than `previous`), stored values are not carried over: a
 * secret goes only where it was given for, so it must be entered again.
 */
export function mergeSecretValues(
  entry: ServerEntry,
  stored: Readonly<Record<string, string>>,
  replacements: Readonly<Record<string, string>> = {},
  previous?: ServerDestination,
): Record<string, string> {
  const keep = !previous || destinationKey(previous) === destinationKey(entryDestination(entry));
  const merged: Record<string, string> = {};
  for (const name of entry.secrets ?? []) {
    const value = replacements[name] ?? (keep ? stored[name] : undefined);
    if (value !== undefined) merged[name] = value;
  }
  return merged;
}

/**
 * What a secret is bound to besides its server and name: where the server
 * is. A secret sealed for `npx -y some-server` cannot be opened once the row
 * says `npx -y other-package` or points at another URL, so editing a row
 * behind the app's back cannot send a stored secret somewhere new.
 */
export function secretBinding(serverId: string, name: string, destination: ServerDestination): string {
  return `mcp-server-secret\u0000${serverId}\u0000${name}\u0000${destinationKey(destination)}`;
}
