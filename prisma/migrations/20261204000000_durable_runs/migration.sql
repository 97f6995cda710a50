-- CreateTable
CREATE TABLE "RunStep" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "recordedAt" DATETIME NOT NULL,

    PRIMARY KEY ("runId", "key"),
    CONSTRAINT "RunStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT,
    "document" TEXT NOT NULL,
    "input" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL,
    "outputs" TEXT NOT NULL DEFAULT '{}',
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME,
    "workerId" TEXT,
    "leaseExpiresAt" DATETIME,
    "resumeCount" INTEGER NOT NULL DEFAULT 0,
    "cancelRequestedAt" DATETIME,
    "attention" TEXT,
    CONSTRAINT "Run_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("document", "endedAt", "error", "id", "input", "outputs", "startedAt", "status", "workflowId") SELECT "document", "endedAt", "error", "id", "input", "outputs", "startedAt", "status", "workflowId" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_workflowId_startedAt_idx" ON "Run"("workflowId", "startedAt");
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");
CREATE TABLE "new_ToolCall" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "nodeRunId" TEXT,
    "tool" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "caller" TEXT NOT NULL,
    "arguments" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "isError" BOOLEAN NOT NULL DEFAULT false,
    "tainted" BOOLEAN NOT NULL DEFAULT false,
    "startedAt" DATETIME NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "sequence" INTEGER NOT NULL DEFAULT 0,
    "stepKey" TEXT,
    "outcome" TEXT,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "ToolCall_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ToolCall_nodeRunId_fkey" FOREIGN KEY ("nodeRunId") REFERENCES "NodeRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ToolCall" ("arguments", "caller", "durationMs", "error", "id", "inputTokens", "isError", "nodeRunId", "outputTokens", "result", "runId", "sequence", "server", "startedAt", "tainted", "tool") SELECT "arguments", "caller", "durationMs", "error", "id", "inputTokens", "isError", "nodeRunId", "outputTokens", "result", "runId", "sequence", "server", "startedAt", "tainted", "tool" FROM "ToolCall";
DROP TABLE "ToolCall";
ALTER TABLE "new_ToolCall" RENAME TO "ToolCall";
CREATE INDEX "ToolCall_runId_startedAt_idx" ON "ToolCall"("runId", "startedAt");
CREATE INDEX "ToolCall_runId_sequence_idx" ON "ToolCall"("runId", "sequence");
CREATE INDEX "ToolCall_nodeRunId_idx" ON "ToolCall"("nodeRunId");
CREATE UNIQUE INDEX "ToolCall_runId_stepKey_key" ON "ToolCall"("runId", "stepKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

