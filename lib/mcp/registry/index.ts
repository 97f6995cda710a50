// The MCP server registry: the entry schema (checked on every write and read),
// the machine's policy, the registry contract and its in-memory implementation.
// The database implementation is lib/db/servers.ts. Not server-only: the CLI uses it.

export {
  serverEntrySchema,
  serverEntryDefaults,
  serverId,
  transports,
  type ServerEntry,
  type ServerEntryInput,
  type StdioServerEntry,
  type RemoteServerEntry,
  type Transport,
} from "./server-entry";
export { ServerEntryError, problemField, problemFromZod, type EntryProblem } from "./entry-problem";
export { checkServerPolicy, serverPolicyFromEnvironment, stdioCatalogueOf, type ServerPolicy } from "./server-policy";
export { expandCatalogueChoice } from "./catalogue-choice";
export { idOf, parseServerEntry, validateForSave, validateServerEntry, type EntryVerdict } from "./validate-entry";
export { RegistrySecretError, type ResolvedServer, type SaveOptions, type SecretState, type ServerListing, type ServerRegistry } from "./server-registry";
export { InMemoryServerRegistry, byNameThenId, type InMemoryServerRegistryOptions, type StoredServer } from "./in-memory-registry";
export { checkSecretValues, entryDestination, mergeSecretValues, secretBinding, maxSecretLength, type ServerDestination } from "./secret-values";
export { MissingSecretError, fillSecretRecord, fillSecretReferences, secretReferences } from "./secret-references";
export { entryFromForm, formFromEntry, type ServerFormFields, type FormParse } from "./server-form";
export { parseServerApprovalForm, type ServerApprovalForm, type ServerApprovalParse } from "./server-approval-input";
