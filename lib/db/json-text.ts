/**
 * JSON columns are TEXT (SQLite has no JSON type that Prisma maps). These
 * two keep writing and reading symmetric and never throw: a value that
 * cannot be written as JSON is kept as its text, and text that is not JSON
 * is read back as the string it is, so a trace never becomes unreadable.
 */

/** The JSON text of a value; `undefined` becomes `null`. */
export function toJsonText(value: unknown): string {
  try {
    // Without a replacer first: one with a function is called for every key, several times slower on the journal's
    // write path (2 KB results, twice per call). JSON.stringify throws on a bigint, which the second try converts.
    return JSON.stringify(value ?? null) ?? "null";
  } catch {
    try {
      return JSON.stringify(value ?? null, (_key, item) => (typeof item === "bigint" ? item.toString() : item)) ?? "null";
    } catch {
      return JSON.stringify(String(value));
    }
  }
}

/** The value of a JSON column (a null column is `null`). */
export function fromJsonText(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A JSON column that holds an object (inputs, outputs); anything else is wrapped as `{ value }`. */
export function objectFromJsonText(text: string | null): Record<string, unknown> {
  const value = fromJsonText(text);
  if (value === null) return {};
  return typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}
