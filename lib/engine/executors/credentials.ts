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
  for (const fields of Object.values(values)) for (const value of Object.values(fields)) if (value) context.secrets.add(value);
  const missing = manifest.interface.credentials.filter((credential) => credential.required && !Object.values(values[credential.name] ?? {}).some(Boolean));
  if (missing.length) {
    throw new MissingCredentialError(`${manifest.interface.title} needs the credential ${missing.map((credential) => `'${credential.displayName}'`).join(", ")}; add it on the Credentials page or in the environment`);
  }
  return values;
}

export class MissingCredentialError extends Error {}
