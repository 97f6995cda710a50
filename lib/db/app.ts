import "server-only";

/**
 * The app's side of lib/db (server only): its one shared Prisma client and
 * the reads and writes that go through it: workflows and their versions,
 * runs and their traces, chat threads and widgets. Code outside Next opens
 * its own client and uses lib/db/index.ts.
 */
export { prisma } from "./client";
export {
  createWorkflow,
  createWorkflowVersion,
  deleteWorkflow,
  duplicateWorkflow,
  getWorkflow,
  getWorkflowVersion,
  listWorkflows,
  listWorkflowVersions,
  newWorkflowId,
  renameWorkflow,
  saveWorkflowDocument,
  workflowNames,
  type StoredDocument,
  type WorkflowRecord,
  type WorkflowSummary,
  type WorkflowVersionRecord,
  type WorkflowVersionSummary,
} from "./workflows";
// Runs and their traces, read.
export { getRunTrace, listRuns, listRecentRuns } from "./runs";
export { getRunProgress } from "./run-progress";
export { getTraceOverview, getCallPage, getCallDetail, getTaintOrigins, getTurnPage, maxPageCalls, maxPageTurns, type CallPageRequest } from "./trace-reads";
export { getTraceChanges } from "./trace-changes";
// Chat threads and widgets.
export { createChatThread, deleteChatThread, listChatThreads, readChatThread, readChatTurns, touchChatThread, unfinishedChatTurn, updateChatThread } from "./chat-threads";
export {
  createChatWidget,
  deleteChatWidget,
  findChatWidgetByToken,
  listChatWidgets,
  listWidgetThreads,
  readChatWidget,
  rotateChatWidgetToken,
  updateChatWidget,
  widgetTokenPrefix,
  type ChatWidgetRecord,
} from "./chat-widgets";
