/**
 * What people granted one workflow, read from outside its document (an
 * imported document brings none): the registry servers it may use and the
 * stored credentials it may send, each credential with the origins its
 * owner approved for this workflow beyond the credential's own.
 */
export interface WorkflowGrants {
  servers: ReadonlySet<string>;
  /** Key: `<node type>/<credential name>` (see credentialGrantKey). */
  credentials: ReadonlyMap<string, readonly string[]>;
}

/** The resource id a credential grant names: `openai-agent/openai`. */
export function credentialGrantKey(nodeType: string, name: string): string {
  return `${nodeType}/${name}`;
}
