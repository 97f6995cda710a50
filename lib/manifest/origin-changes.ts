import type { NodeManifest } from "./catalogue";
import { configValues } from "./config-values";
import { callOrigins, defaultCredentialOrigins } from "./credential-origins";
import type { CredentialRequirement } from "./schemas";

/** The part of a workflow document this reads: its nodes' ids, types and configs. */
export interface OriginDocument {
  nodes: readonly { id: string; type: string; config?: Readonly<Record<string, unknown>> }[];
}

/** What the review needs to know about the app's credentials and this workflow's grants. */
export interface OriginContext {
  manifest(nodeType: string): NodeManifest | undefined;
  /** Whether the credential has a value (stored, or in the environment): only then does a call carry it. */
  hasValue(nodeType: string, name: string): boolean;
  /** Origins added when the credential was stored (or SWITCHBOARD_CREDENTIAL_<NAME>_ORIGINS) and approved for this workflow (its grant). */
  extraOrigins(nodeType: string, name: string): readonly string[];
}

/**
 * One node sending one credential to origins no one approved for it in this
 * workflow: what an import, a save or a restore shows, and what an owner
 * approves.
 */
export interface OriginChange {
  nodeId: string;
  nodeType: string;
  /** The credential's name in the node type's manifest (`openai`). */
  credential: string;
  /** Where this node's calls went in the document before (empty: an import, or a node new in this save). */
  before: string[];
  /** Where they go now. */
  after: string[];
  /** Of `after`, the origins the credential may not go to from this workflow: runs refuse them until an owner approves. */
  unapproved: string[];
  /** Where the credential may go: the manifest's, the ones added when it was stored, the ones approved for this workflow. */
  approved: string[];
}

/**
 * Every node of the document that would send a credential (one that has a
 * value) to an origin not approved for it in this workflow — whether or
 * not that is new. The canvas keeps showing these until an owner approves.
 */
export function pendingOrigins(document: OriginDocument, context: OriginContext): OriginChange[] {
  return reach(document, context).flatMap(({ nodeId, nodeType, requirement, after }) => {
    const approved = [...new Set([...defaultCredentialOrigins(context.manifest(nodeType)!, requirement), ...context.extraOrigins(nodeType, requirement.name)])].sort();
    const unapproved = after.filter((origin) => !approved.includes(origin));
    return unapproved.length ? [{ nodeId, nodeType, credential: requirement.name, before: [], after, unapproved, approved }] : [];
  });
}

/**
 * What this import or save changed: each node whose credentialed calls now
 * reach an origin that is not approved and that the same node did not
 * already reach in the document before (`before` null for an import: all
 * of it is new). A save that changes no origin answers nothing.
 *
 *   originChanges(saved, edited, context)
 *   // [{ nodeId: "agent", nodeType: "openai-agent", credential: "openai",
 *   //    before: ["https://api.openai.com"], after: ["https://attacker.example"], unapproved: ["https://attacker.example"], ... }]
 */
export function originChanges(before: OriginDocument | null, after: OriginDocument, context: OriginContext): OriginChange[] {
  const earlier = new Map(before ? reach(before, context).map((entry) => [`${entry.nodeId}\u0000${entry.requirement.name}`, entry.after]) : []);
  const changes: OriginChange[] = [];
  for (const pending of pendingOrigins(after, context)) {
    const previous = earlier.get(`${pending.nodeId}\u0000${pending.credential}`) ?? [];
    if (pending.unapproved.every((origin) => previous.includes(origin))) continue;
    changes.push({ ...pending, before: previous });
  }
  return changes;
}

/** One plain sentence for a change, for a log line or a screen reader: node, credential, before → after, and what follows. */
export function describeOriginChange(change: OriginChange): string {
  const before = change.before.length ? change.before.join(", ") : `only ${change.approved.join(", ") || "nowhere"} (where it may go)`;
  return (
    `Node “${change.nodeId}” (${change.nodeType}) now sends the credential '${change.credential}' to ${change.unapproved.join(", ")}: ` +
    `${before} → ${change.after.join(", ")}. Runs refuse to send it there until an owner approves.`
  );
}

function reach(document: OriginDocument, context: OriginContext): { nodeId: string; nodeType: string; requirement: CredentialRequirement; after: string[] }[] {
  return document.nodes.flatMap((node) => {
    const manifest = context.manifest(node.type);
    if (!manifest || manifest.interface.credentials.length === 0) return [];
    const after = callOrigins(manifest, configValues(manifest.config, { ...(node.config ?? {}) }));
    return manifest.interface.credentials
      .filter((requirement) => context.hasValue(node.type, requirement.name))
      .map((requirement) => ({ nodeId: node.id, nodeType: node.type, requirement, after }));
  });
}
