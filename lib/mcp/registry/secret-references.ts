/**
 * `{{ secrets.NAME }}` in an entry's env values and header values: the only
 * places a registry secret may be used. Values are filled in on the server
 * at connection time and never stored in the entry itself.
 */

const reference = /\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const anyTemplate = /\{\{[^}]*\}\}/;

/** The secret names a text refers to, in order, e.g. `Bearer {{ secrets.TOKEN }}` → ["TOKEN"]. */
export function secretReferences(text: string): string[] {
  return [...text.matchAll(reference)].map((match) => match[1]);
}

/** True when a text holds a `{{ … }}` that is not a well-formed secret reference. */
export function hasStrayTemplate(text: string): boolean {
  return anyTemplate.test(text.replace(reference, ""));
}

/** True when a text holds any `{{ … }}` at all. */
export function hasTemplate(text: string): boolean {
  return anyTemplate.test(text);
}

export class MissingSecretError extends Error {
  override name = "MissingSecretError";
  readonly code = "secret-missing";
  constructor(readonly secret: string) {
    super(`the secret ${secret} has no value; set it on /servers (edit the server) or with \`npm run servers -- add\``);
  }
}

/** Replaces every reference in a text by its value; a name without a value throws MissingSecretError. */
export function fillSecretReferences(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(reference, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === "") throw new MissingSecretError(name);
    return value;
  });
}

/** fillSecretReferences over every value of a record (env, headers). */
export function fillSecretRecord(record: Readonly<Record<string, string>> | undefined, values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, fillSecretReferences(value, values)]));
}
