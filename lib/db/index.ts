// The app's storage (server only). Scripts that run outside Next use
// ./create-client directly, which does not import "server-only".
import "server-only";

export { prisma } from "./client";
export { DatabaseError, toDatabaseError, type DatabaseErrorCode } from "./database-error";
export { listWorkflows, getWorkflow, type WorkflowSummary, type WorkflowRecord } from "./workflows";
export { demoWorkflow } from "./demo-workflow";
// Runs and their traces.
export { getRunTrace, listRuns, listRecentRuns } from "./runs";
export { getTraceOverview, getCallPage, getCallDetail, getTaintOrigins, getTurnPage, maxPageCalls, maxPageTurns, type CallPageRequest } from "./trace-reads";
export { getTraceChanges } from "./trace-changes";
export { readWholeRunTrace } from "./whole-run-trace";
export { readRunTotals, type ListedRunTotals } from "./run-totals";
export { getRunProgress } from "./run-progress";
export { PrismaRunSink } from "./run-sink";
export { resumeInterruptedRuns, interruptedRunMessage } from "./interrupted-runs";
export { toJsonText } from "./json-text";
export {
  createWorkflow,
  createWorkflowVersion,
  deleteWorkflow,
  duplicateWorkflow,
  getWorkflowVersion,
  listWorkflowVersions,
  newWorkflowId,
  renameWorkflow,
  saveWorkflowDocument,
  workflowNames,
  type StoredDocument,
  type WorkflowVersionRecord,
  type WorkflowVersionSummary,
} from "./workflows";
export { PrismaServerRegistry, type PrismaServerRegistryOptions } from "./servers";
export { PrismaCredentialStore, CredentialUnreadableError, storedCredentials, storedCredentialOrigins, type CredentialStatus } from "./credentials";
export { PrismaGrantStore, storedRunParts, type GrantKind, type GrantRecord } from "./grants";
export { migrateAllowedAgents } from "./grant-migration";
export { PrismaAccounts, normalEmail, type UserRecord, type ApiTokenRecord } from "./accounts";
export { PrismaOAuthStateStore, type OAuthConnectionStatus, type PrismaOAuthStateStoreOptions } from "./server-oauth";
