import { problemFromZod, ServerEntryError, type EntryProblem } from "./entry-problem";
import { expandCatalogueChoice } from "./catalogue-choice";
import { checkSecretValues } from "./secret-values";
import { serverEntrySchema, type ServerEntry } from "./server-entry";
import { checkServerPolicy, serverPolicyFromEnvironment, stdioCatalogueOf, type ServerPolicy } from "./server-policy";

export type EntryVerdict = { ok: true; entry: ServerEntry } | { ok: false; problem: EntryProblem };

/** The schema alone: shape, defaults, the command allowlist, where secrets may appear. */
export function parseServerEntry(input: unknown): EntryVerdict {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, problem: { field: "", message: "a server entry is a JSON object" } };
  }
  const parsed = serverEntrySchema.safeParse(input);
  return parsed.success ? { ok: true, entry: parsed.data } : { ok: false, problem: problemFromZod(parsed.error) };
}

/**
 * The whole check an entry passes on every write and every read: a choice
 * from the stdio catalogue made into its command line, the schema, then
 * this machine's policy (the stdio catalogue, stdio switched off, the URL guard).
 *
 *   const verdict = await validateServerEntry({ id: "files", name: "Files", transport: "stdio", command: "bash", args: [] });
 *   // { ok: false, problem: { field: "command", message: "no entry of the stdio catalogue (…) runs 'bash'", catalogueLine: … } }
 */
export async function validateServerEntry(input: unknown, policy: ServerPolicy = serverPolicyFromEnvironment()): Promise<EntryVerdict> {
  const expanded = expandCatalogueChoice(input, stdioCatalogueOf(policy));
  if (!expanded.ok) return expanded;
  const parsed = parseServerEntry(expanded.input);
  if (!parsed.ok) return parsed;
  const problem = await checkServerPolicy(parsed.entry, policy);
  return problem ? { ok: false, problem } : parsed;
}

/**
 * What every registry does before it stores anything: the entry passes the
 * schema and this machine's rules, and its new secret values fit the
 * secrets it lists. Throws ServerEntryError naming the field.
 */
export async function validateForSave(input: unknown, secretValues: Readonly<Record<string, string>>, policy: ServerPolicy): Promise<ServerEntry> {
  const verdict = await validateServerEntry(input, policy);
  if (!verdict.ok) throw new ServerEntryError(verdict.problem, { stored: false, serverId: idOf(input) });
  const secretProblem = checkSecretValues(verdict.entry, secretValues);
  if (secretProblem) throw new ServerEntryError(secretProblem, { stored: false, serverId: verdict.entry.id });
  return verdict.entry;
}

/** The id an input claims, for an error about an input that did not parse. */
export function idOf(input: unknown): string | undefined {
  return typeof input === "object" && input !== null && "id" in input && typeof input.id === "string" ? input.id : undefined;
}
