import "server-only";
import path from "node:path";
import { credentialStore } from "@/app/credentials/credential-store";
import { credentialsFromEnvironment, environmentCredentialGate } from "@/lib/engine";
import { cachedCatalogue, type NodeManifest, originChanges, type OriginContext, type OriginDocument, pendingOrigins, normalOrigin } from "@/lib/manifest";
import type { OriginReview } from "@/components/workflows/action-types";
import type { Workflow } from "@/lib/graph";
import { pendingLoosenings } from "./approval-review";
import { grantStore } from "./grant-store";


/**
 * The app's side of the origin review: the shipped manifests, which
 * credentials have a value (stored or in the environment), and where each
 * may go from this workflow (added when stored, from the environment,
 * approved in the workflow's grant). `workflowId` null: a document not
 * saved yet (an import), which has no grants.
 */
export async function originContext(workflowId: string | null, environment: NodeJS.ProcessEnv = process.env): Promise<OriginContext> {
  const [catalogue, stored, grants] = await Promise.all([
    cachedCatalogue(path.join(process.cwd(), "nodes")),
    credentialStore().status(),
    workflowId ? grantStore().list(workflowId) : Promise.resolve([]),
  ]);
  const environmentGrants = { environmentCredentials: new Set(grants.filter((grant) => grant.kind === "environment").map((grant) => grant.resource)) };
  const manifests = new Map<string, NodeManifest>(catalogue.nodes.flatMap((node) => (node.manifest ? [[node.manifest.interface.name, node.manifest] as const] : [])));
  const key = (nodeType: string, name: string) => `${nodeType}/${name}`;
  const withValue = new Set(stored.filter((item) => item.fields.length > 0).map((item) => key(item.nodeType, item.name)));
  for (const [nodeType, manifest] of manifests) {
    const fromEnvironment = credentialsFromEnvironment(manifest.interface.credentials, environment, environmentCredentialGate(catalogue, nodeType, environmentGrants));
    for (const [name, fields] of Object.entries(fromEnvironment)) if (Object.values(fields).some(Boolean)) withValue.add(key(nodeType, name));
  }
  return {
    manifest: (nodeType) => manifests.get(nodeType),
    hasValue: (nodeType, name) => withValue.has(key(nodeType, name)),
    extraOrigins: (nodeType, name) => {
      const added = stored.find((item) => item.nodeType === nodeType && item.name === name)?.origins ?? [];
      const fromEnvironment = (environment[`SWITCHBOARD_CREDENTIAL_${name}_ORIGINS`.toUpperCase()] ?? "")
        .split(",")
        .map((item) => normalOrigin(item.trim()))
        .filter((item): item is string => item !== null);
      const approved = grants.find((grant) => grant.kind === "credential" && grant.resource === key(nodeType, name))?.origins ?? [];
      return [...added, ...fromEnvironment, ...approved];
    },
  };
}

/** The review of one import (`before` null) or save of a workflow's document: new credential origins, and approval defaults the document would loosen. */
export async function reviewOrigins(workflowId: string | null, before: OriginDocument | null, after: OriginDocument): Promise<OriginReview> {
  const [context, approvalLoosenings] = await Promise.all([originContext(workflowId), pendingLoosenings(workflowId, after as Workflow)]);
  return { originChanges: originChanges(before, after, context), pendingOrigins: pendingOrigins(after, context), approvalLoosenings };
}
