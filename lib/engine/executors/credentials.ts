import { type NodeManifest, defaultCredentialOrigins } from "../../manifest";
import type { Credentials } from "../../calls";
import type { BoundCredential } from "../../security";
import type { EngineEnvironment } from "../environment";
import type { RunContext } from "../run-context";
import { environmentCredentialGate } from "../environment-credentials";
import { credentialGrantKey } from "../workflow-grants";

/** A node's credentials as a call context takes them: the values, and the same values bound to their origins. */
export interface CallCredentials {
  credentials: Credentials;
  boundCredentials: BoundCredential[];
}

/**
 * The credential values a node declared, resolved on the server for this
 * run, each bound to the origins it may be sent to (the manifest's, the
 * ones added when it was stored, the ones approved for this workflow).
 * Every value is registered as a secret, so the run's sink redacts it
 * wherever it would appear. A required credential that has no value, or a
 * credential this workflow was not granted, fails the node before any call.
 */
export async function resolveCredentials(manifest: NodeManifest, context: RunContext): Promise<CallCredentials> {
  if (manifest.interface.credentials.length === 0) return { credentials: {}, boundCredentials: [] };
  const nodeType = manifest.interface.name;
  const values = await credentialValuesFor(manifest, context.env);
  for (const fields of Object.values(values)) for (const secret of secretForms(fields)) context.secrets.add(secret);
  const ungranted = ungrantedCredentials(manifest, values, context);
  if (ungranted.length) throw new MissingCredentialError(ungrantedMessage(nodeType, ungranted));
  const missing = manifest.interface.credentials.filter((credential) => credential.required && !Object.values(values[credential.name] ?? {}).some(Boolean));
  if (missing.length) {
    throw new MissingCredentialError(`${manifest.interface.title} needs the credential ${missing.map((credential) => `'${credential.displayName}'`).join(", ")}; add it on the Credentials page or in the environment`);
  }
  const boundCredentials = await bindCredentials(manifest, values, context.env);
  return { credentials: values, boundCredentials };
}

/** A node's credential values: stored ones, and the environment's where this node type may take them (first-party, or allowed by an owner). */
export async function credentialValuesFor(manifest: NodeManifest, env: Pick<EngineEnvironment, "credentials" | "catalogue" | "grants">): Promise<Credentials> {
  const nodeType = manifest.interface.name;
  return env.credentials(nodeType, manifest.interface.credentials, environmentCredentialGate(env.catalogue, nodeType, env.grants));
}

/**
 * Each credential that has a value, bound to the origins it may go to: the
 * manifest's defaults, the ones added when it was stored, the ones approved
 * for this workflow (its grant).
 */
export async function bindCredentials(manifest: NodeManifest, values: Credentials, env: Pick<EngineEnvironment, "credentialOrigins" | "grants">): Promise<BoundCredential[]> {
  const nodeType = manifest.interface.name;
  const bound: BoundCredential[] = [];
  for (const requirement of manifest.interface.credentials) {
    const fields = values[requirement.name];
    if (!fields || !Object.values(fields).some(Boolean)) continue;
    const added = (await env.credentialOrigins?.(nodeType, requirement.name)) ?? [];
    const approved = env.grants?.credentials.get(credentialGrantKey(nodeType, requirement.name)) ?? [];
    const origins = [...new Set([...defaultCredentialOrigins(manifest, requirement), ...added, ...approved])];
    bound.push({ label: `the credential '${requirement.name}' of ${nodeType}`, values: secretForms(fields), origins });
  }
  return bound;
}

/** The credentials that have a value but were not granted to this workflow (none when the run checks no grants). */
export function ungrantedCredentials(manifest: NodeManifest, values: Credentials, context: { env: Pick<EngineEnvironment, "grants"> }): string[] {
  const grants = context.env.grants;
  if (!grants) return [];
  return manifest.interface.credentials
    .filter((credential) => Object.values(values[credential.name] ?? {}).some(Boolean))
    .filter((credential) => !grants.credentials.has(credentialGrantKey(manifest.interface.name, credential.name)))
    .map((credential) => credential.name);
}

export function ungrantedMessage(nodeType: string, names: readonly string[]): string {
  return `the credential${names.length === 1 ? "" : "s"} ${names.map((name) => `'${name}'`).join(", ")} of ${nodeType} ${names.length === 1 ? "is" : "are"} not granted to this workflow; an editor grants ${names.length === 1 ? "it" : "them"} in the workflow's Grants panel`;
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
