/**
 * A node or edge id that is not taken yet: the base itself, or the base with
 * the next free number (`unit-converter`, `unit-converter-2`, ...). Readable
 * ids matter: they name nodes in problems, in the trace and in templates.
 */
export function uniqueId(base: string, taken: ReadonlySet<string>): string {
  const clean = base.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "node";
  if (!taken.has(clean) && clean !== "__proto__") return clean;
  const stem = clean.replace(/-\d+$/, "");
  for (let index = 2; ; index++) {
    const candidate = `${stem}-${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}
