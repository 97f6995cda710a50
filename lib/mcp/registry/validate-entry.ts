import { problemFromZod, type EntryProblem } from "./entry-problem";
import { serverEntrySchema, type ServerEntry } from "./server-entry";
import { checkServerPolicy, serverPolicyFromEnvironment, type ServerPolicy } from "./server-policy";

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
 * The whole check an entry passes on every write and every read: the schema,
 * then this machine's policy (stdio switched off, the URL guard).
 *
 *   const verdict = await validateServerEntry({ id: "files", name: "Files", transport: "stdio", command: "bash" });
 *   // { ok: false, problem: { field: "command", message: "'bash' is not an allowed command; …" } }
 */
export async function validateServerEntry(input: unknown, policy: ServerPolicy = serverPolicyFromEnvironment()): Promise<EntryVerdict> {
  const parsed = parseServerEntry(input);
  if (!parsed.ok) return parsed;
  const problem = await checkServerPolicy(parsed.entry, policy);
  return problem ? { ok: false, problem } : parsed;
}
