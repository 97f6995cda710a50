// The app's storage (server only). Scripts that run outside Next use
// ./create-client directly, which does not import "server-only".
import "server-only";

export { prisma } from "./client";
export { DatabaseError, toDatabaseError, type DatabaseErrorCode } from "./database-error";
export { listWorkflows, getWorkflow, type WorkflowSummary, type WorkflowRecord } from "./workflows";
export { demoWorkflow } from "./demo-workflow";
