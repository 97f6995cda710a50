-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
    CONSTRAINT "ToolCall_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ToolCall_nodeRunId_fkey" FOREIGN KEY ("nodeRunId") REFERENCES "NodeRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ToolCall" ("arguments", "caller", "durationMs", "error", "id", "inputTokens", "isError", "nodeRunId", "outputTokens", "result", "runId", "server", "startedAt", "tainted", "tool") SELECT "arguments", "caller", "durationMs", "error", "id", "inputTokens", "isError", "nodeRunId", "outputTokens", "result", "runId", "server", "startedAt", "tainted", "tool" FROM "ToolCall";
DROP TABLE "ToolCall";
ALTER TABLE "new_ToolCall" RENAME TO "ToolCall";
CREATE INDEX "ToolCall_runId_startedAt_idx" ON "ToolCall"("runId", "startedAt");
CREATE INDEX "ToolCall_runId_sequence_idx" ON "ToolCall"("runId", "sequence");
CREATE INDEX "ToolCall_nodeRunId_idx" ON "ToolCall"("nodeRunId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

