import "server-only";
import type { Workflow } from "@/lib/graph";
import type { Catalogue } from "@/lib/manifest";
import { environmentCredentialGate, environmentCredentialVariable } from "@/lib/engine";
import type { GrantRecord } from "@/lib/db";

/** A node type of the workflow that declares a credential set in the server's environment, which it may not take yet. */
export interface EnvironmentCredentialRequest {
  nodeType: string;
  credential: string;
  nodeIds: string[];
  /** The environment variables it would read, e.g. SWITCHBOARD_CREDENTIAL_OPENAI_APIKEY. */
  variables: string[];
}

/**
 * The workflow's node types that are not first-party and declare a
 * credential the server's environment has a value for, not yet allowed by
 * an owner: what the Grants page asks an owner about.
 */
export function environmentCredentialRequests(workflow: Pick<Workflow, "nodes">, catalogue: Catalogue, grants: readonly GrantRecord[], environment: NodeJS.ProcessEnv = process.env): EnvironmentCredentialRequest[] {
  const allowed = { environmentCredentials: new Set(grants.filter((grant) => grant.kind === "environment").map((grant) => grant.resource)) };
  const requests = new Map<string, EnvironmentCredentialRequest>();
  for (const node of workflow.nodes) {
    const manifest = catalogue.nodes.find((candidate) => candidate.manifest?.interface.name === node.type)?.manifest;
    if (!manifest) continue;
    const mayUse = environmentCredentialGate(catalogue, node.type, allowed);
    for (const credential of manifest.interface.credentials) {
      const variables = credential.fields.map((field) => environmentCredentialVariable(credential.name, field)).filter((variable) => Boolean(environment[variable]));
      if (variables.length === 0 || mayUse(credential.name)) continue;
      const key = `${node.type}/${credential.name}`;
      const request = requests.get(key) ?? { nodeType: node.type, credential: credential.name, nodeIds: [], variables };
      request.nodeIds.push(node.id);
      requests.set(key, request);
    }
  }
  return [...requests.values()];
}
