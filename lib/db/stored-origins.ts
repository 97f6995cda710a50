import { normalOrigin } from "../manifest";

/** A JSON array of origins as stored (grants, credentials); anything else reads as none (a hand-edited row grants no origin). */
export function parseOrigins(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string" && normalOrigin(item) === item) : [];
  } catch {
    return [];
  }
}
