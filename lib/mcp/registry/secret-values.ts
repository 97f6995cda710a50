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

/** The stored values kept after a save: those of names still listed, replaced by any new ones. */
export function mergeSecretValues(entry: ServerEntry, stored: Readonly<Record<string, string>>, replacements: Readonly<Record<string, string>> = {}): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const name of entry.secrets ?? []) {
    const value = replacements[name] ?? stored[name];
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
export function secretBinding(serverId: string, name: string, destination: { transport: string; command?: string | null; args?: unknown; url?: string | null }): string {
  const where = destination.transport === "stdio" ? [destination.transport, destination.command ?? "", destination.args ?? []] : [destination.transport, destination.url ?? ""];
  return `mcp-server-secret\u0000${serverId}\u0000${name}\u0000${JSON.stringify(where)}`;
}
