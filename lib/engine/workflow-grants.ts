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
  /** Environment credentials (SWITCHBOARD_CREDENTIAL_*) an owner let a node type that is not first-party take, by `<node type>/<name>`. */
  environmentCredentials?: ReadonlySet<string>;
  /** Server defaults this workflow's document may loosen, by `server/tool` or `server/*` (see approvalGrantKey); none when unset. */
  approvals?: ReadonlySet<string>;
}

/** The resource id an approval-loosening grant names: `mail/send_email`, or `mail/*` for the server-wide default. */
export function approvalGrantKey(server: string, tool: string): string {
  return `${server}/${tool}`;
}

/** The resource id a credential grant names: `openai-agent/openai`. */
export function credentialGrantKey(nodeType: string, name: string): string {
  return `${nodeType}/${name}`;
}
