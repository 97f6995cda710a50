/**
 * lib/mcp's public surface: the server registry and the stdio catalogue,
 * connecting to a server entry and its tool index, the connection manager,
 * OAuth to remote servers, MCP Apps, the canvas's tool servers, and the
 * outside endpoint (its HTTP face, sessions and the port lib/db implements).
 */
export { appFrameHeaders, listedTool, readToolApp, type ToolAppOutcome } from "./apps";
export { canvasToolServers } from "./canvas-tool-servers";
export { EntryConnectionError, connectEntry, listConnectedTools, listEntryTools, testEntryConnection, type ConnectEntryOptions, type EntryConnection } from "./connect-entry";
export { ConnectionManager, type ConnectionManagerOptions } from "./connection-manager";
export { sessionTaskScope, type EndpointSessionStore, type StoredEndpointSession } from "./endpoint-session-store";
export { hostApprover } from "./host-approver";
export { appOrigin } from "./oauth/app-origin";
export { finishConnect, startConnect } from "./oauth/connect-flow";
export { clientMetadataDocumentUrl, oauthCallbackUrl } from "./oauth/entry-oauth";
export { InMemoryOAuthStateStore, type OAuthStateStore, type ServerOAuthState } from "./oauth/oauth-state";
export { RegistryOAuthProvider } from "./oauth/registry-oauth-provider";
export {
  RegistrySecretError,
  ServerEntryError,
  byNameThenId,
  entryDestination,
  entryFromForm,
  formFromEntry,
  idOf,
  mergeSecretValues,
  parseServerApprovalForm,
  parseServerEntry,
  secretBinding,
  serverEntryDefaults,
  serverPolicyFromEnvironment,
  validateForSave,
  validateServerEntry,
  type EntryProblem,
  type ResolvedServer,
  type SaveOptions,
  type SecretState,
  type ServerDestination,
  type ServerEntry,
  type ServerListing,
  type ServerPolicy,
  type ServerRegistry,
} from "./registry";
export { matchCatalogue, stdioCatalogueFromEnvironment, type ParameterSpec, type StdioCatalogue } from "./stdio-catalogue";
export { failedResult, taskResult } from "./task-result";
export { protocolHints } from "./tool-hints";
export { ToolIndex, entryFingerprint, processToolIndex } from "./tool-index";
export { createWorkflowEndpoint, outsideCallInput, type McpHost, type OutsideCall, type OutsideRun, type QueuedOutsideTask, type WorkflowEndpoint } from "./workflow-endpoint";
export { endpointErrorResponse, mcpTokenVariable, protectedResourceMetadata, protectedResourceMetadataUrl } from "./workflow-endpoint-http";
export { EndpointRefusal, WorkflowEndpointSessions } from "./workflow-endpoint-sessions";
