/**
 * The id the server form suggests for a name, in the registry's alphabet
 * (letters, digits, - and _, starting with a letter or digit, at most 64):
 * "GitHub (work)" → "github-work".
 */
export function suggestedServerId(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "")
    .replace(/-{2,}/g, "-")
    .slice(0, 64)
    .replace(/[-_]+$/, "");
}
