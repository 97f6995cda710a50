import "server-only";
import path from "node:path";
import { lintNodes, type CredentialRequirement, defaultCredentialOrigins } from "@/lib/manifest";

export interface NodeCredentialRequirement {
  nodeType: string;
  nodeTitle: string;
  requirement: CredentialRequirement;
  /** Where the manifest lets the credential go (see defaultCredentialOrigins). */
  defaultOrigins: string[];
}

/** Every credential a node type in nodes/ declares: the only ones that may be stored. */
export async function credentialRequirements(): Promise<NodeCredentialRequirement[]> {
  const catalogue = await lintNodes(path.join(process.cwd(), "nodes"));
  return catalogue.nodes.flatMap((node) =>
    (node.manifest?.interface.credentials ?? []).map((requirement) => ({
      nodeType: node.manifest!.interface.name,
      nodeTitle: node.manifest!.interface.title,
      requirement,
      defaultOrigins: defaultCredentialOrigins(node.manifest!, requirement),
    })),
  );
}

/** Whether the server's environment sets a field (SWITCHBOARD_CREDENTIAL_<NAME>_<FIELD>); its value is never read out. */
export function setInEnvironment(name: string, field: string): boolean {
  return Boolean(process.env[`SWITCHBOARD_CREDENTIAL_${name}_${field}`.toUpperCase()]);
}
