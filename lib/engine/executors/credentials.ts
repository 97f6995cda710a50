import type { NodeManifest } from "../../manifest";
import type { Credentials } from "../../calls/render-request";
import type { RunContext } from "../run-context";

/**
 * The credential values a node declared, resolved on the server for this
 * run. Every value is registered as a secret, so the run's sink redacts it
 * wherever it would appear. A required credential that has no value fails
 * the node before any call is made.
 */
export async function resolveCredentials(manifest: NodeManifest, context: RunContext): Promise<Credentials> {
  if (manifest.interface.credentials.length === 0) return {};
  const values = await context.env.credentials(manifest.interface.name, manifest.interface.credentials);
  for (const fields of Object.values(values)) for (const secret of secretForms(fields)) context.secrets.add(secret);
  const missing = manifest.interface.credentials.filter((credential) => credential.required && !Object.values(values[credential.name] ?? {}).some(Boolean));
  if (missing.length) {
    throw new MissingCredentialError(`${manifest.interface.title} needs the credential ${missing.map((credential) => `'${credential.displayName}'`).join(", ")}; add it on the Credentials page or in the environment`);
  }
  return values;
}

export class MissingCredentialError extends Error {}

/**
 * Every form a credential's values may take on the wire, so an API that
 * echoes one back cannot carry it into a trace: each value as written and
 * URL-encoded (apiKeyQuery), and a username with its password as HTTP basic
 * sends them (base64).
 */
export function secretForms(fields: Record<string, string>): string[] {
  const forms = new Set<string>();
  for (const value of Object.values(fields)) {
    if (!value) continue;
    forms.add(value);
    forms.add(encodeURIComponent(value));
  }
  if (fields.username && fields.password) forms.add(Buffer.from(`${fields.username}:${fields.password}`).toString("base64"));
  return [...forms];
}
