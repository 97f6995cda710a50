/**
 * lib/db's public surface for every process: the app, the worker and the
 * command lines. Not server-only: what is here takes its client (or SQL
 * database) as an argument, or opens one, so code outside Next loads it too.
 * Two other files are public: `./app` (server-only), the app's reads and
 * writes through its one shared client, and `./postgres/apply-migrations`,
 * the migration runner for the command lines (it finds the migrations beside
 * its own file, which a Next bundle does not have).
 */
// Opening the database.
export { createPrismaClient, type PrismaClient } from "./create-client";
export { databaseUrl, ensureDatabaseFolder } from "./database-url";
export { DatabaseError, toDatabaseError, type DatabaseErrorCode } from "./database-error";
export { isPostgresUrl, openSqlDatabase } from "./sql/open-database";
export { checkRunDatabase } from "./sql/check-database";
export { GuardFailedError, isoFromSql, sqlTime, type SqlDatabase, type SqlStatement } from "./sql/sql-database";
export { postgresSchemaFrom } from "./postgres/postgres-schema";
export { fromJsonText, toJsonText } from "./json-text";
export { demoWorkflow } from "./demo-workflow";
// Runs: the queue, the journal, waits and forks.
export { DatabaseRunQueue, requestCancel } from "./database-run-queue";
export { queuedRunInsert } from "./queued-runs";
export { listenForRuns, notifyRunQueued, type WakeSource } from "./postgres/run-wakes";
export { startRunTextRelay, type RunTextRelayHandle } from "./postgres/run-text-relay";
export { DatabaseRunJournal } from "./run-journal-store";
export { PrismaRunSink } from "./run-sink";
export { holderMayBeAlive, interruptedRunMessage, resumeInterruptedRuns } from "./interrupted-runs";
export { claimWaitingNotice, denyExpiredApprovals, listWaitingApprovals, recordApprovalDecision, type DecisionInput, type DecisionResult, type WaitingApproval } from "./approvals";
export { listWaitingQuestions, recordQuestionAnswer, type AnswerInput, type AnswerResult, type WaitingQuestion } from "./questions";
export { recordAttentionChoice, type ChoiceResult } from "./attention-choice";
export { forkRun, readForkLinks, type ForkLinks, type ForkRequest, type ForkResult } from "./run-fork";
export { readChatHistory } from "./chat-history-read";
export { cassetteInsert, readCassette } from "./test-cassettes";
export { readPinSource } from "./pin-source";
export { readWholeRunTrace } from "./whole-run-trace";
export { readRunOutline } from "./run-outline";
export { readRunTotals, type ListedRunTotals } from "./run-totals";
// Tests and evaluations, triggers.
export { DatasetStore } from "./datasets";
export { EvaluationStore, type EvaluationRecord } from "./evaluations";
export { TriggerStore } from "./triggers";
// Servers, credentials, grants, accounts and the MCP endpoint's sessions.
export { PrismaServerRegistry, type PrismaServerRegistryOptions } from "./servers";
export { PrismaCredentialStore, CredentialUnreadableError, storedCredentials, storedCredentialOrigins, type CredentialStatus } from "./credentials";
export { PrismaGrantStore, storedRunParts, type GrantKind, type GrantRecord } from "./grants";
export { migrateAllowedAgents } from "./grant-migration";
export { PrismaAccounts, normalEmail, type UserRecord, type ApiTokenRecord } from "./accounts";
export { parseRole, roles, type Role } from "./roles";
export { PrismaOAuthStateStore, type OAuthConnectionStatus, type PrismaOAuthStateStoreOptions } from "./server-oauth";
export { PrismaEndpointSessionStore, PrismaTaskStore, settleTasksOfRun } from "./mcp-endpoint-store";
