import "server-only";
import type { CredentialStatus, GrantRecord } from "@/lib/db";
import type { Workflow } from "@/lib/graph";
import { type Catalogue, configValues, callOrigins, defaultCredentialOrigins } from "@/lib/manifest";

/** A stored credential one of the workflow's nodes would send, and where: what the grants page shows. */
export interface CredentialUse {
  nodeType: string;
  name: string;
  nodeIds: string[];
  granted: boolean;
  /** Origins the workflow's calls would send it to that it is not bound to: each needs an owner's approval. */
  unapproved: string[];
}

/**
 * The stored credentials this workflow's nodes use, whether each is granted,
 * and every origin its calls reach that the credential's list (declared,
 * added when stored, approved for this workflow) does not hold: "this
 * workflow sends credential X to https://…".
 */
export function credentialUses(workflow: Workflow, catalogue: Catalogue, stored: readonly CredentialStatus[], grants: readonly GrantRecord[]): CredentialUse[] {
  const uses = new Map<string, CredentialUse>();
  for (const node of workflow.nodes) {
    const manifest = catalogue.nodes.find((candidate) => candidate.manifest?.interface.name === node.type)?.manifest;
    if (!manifest) continue;
    const reached = callOrigins(manifest, configValues(manifest.config, node.config));
    for (const requirement of manifest.interface.credentials) {
      const saved = stored.find((item) => item.nodeType === node.type && item.name === requirement.name);
      if (!saved) continue;
      const key = `${node.type}/${requirement.name}`;
      const grant = grants.find((item) => item.kind === "credential" && item.resource === key);
      const allowed = new Set([...defaultCredentialOrigins(manifest, requirement), ...saved.origins, ...(grant?.origins ?? [])]);
      const use = uses.get(key) ?? { nodeType: node.type, name: requirement.name, nodeIds: [], granted: Boolean(grant), unapproved: [] };
      use.nodeIds.push(node.id);
      use.unapproved = [...new Set([...use.unapproved, ...reached.filter((origin) => !allowed.has(origin))])].sort();
      uses.set(key, use);
    }
  }
  return [...uses.values()];
}
