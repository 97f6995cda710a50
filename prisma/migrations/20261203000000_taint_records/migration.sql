-- CreateTable
CREATE TABLE "TaintRecord" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source" TEXT,
    "server" TEXT,
    "tool" TEXT,
    "nodeId" TEXT NOT NULL,
    "nodeRunId" TEXT NOT NULL,
    "toolCallId" TEXT,
    "key" TEXT,
    "output" TEXT,
    "origins" TEXT NOT NULL DEFAULT '[]',
    "recordedAt" DATETIME NOT NULL,
    "sequence" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "TaintRecord_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_NodeRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "nodeType" TEXT NOT NULL,
    "parentToolCallId" TEXT,
    "status" TEXT NOT NULL,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "inputs" TEXT NOT NULL DEFAULT '{}',
    "outputs" TEXT NOT NULL DEFAULT '{}',
    "taintedOutputs" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME,
    CONSTRAINT "NodeRun_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_NodeRun" ("endedAt", "error", "id", "inputs", "nodeId", "nodeType", "outputs", "parentToolCallId", "runId", "startedAt", "status", "turns") SELECT "endedAt", "error", "id", "inputs", "nodeId", "nodeType", "outputs", "parentToolCallId", "runId", "startedAt", "status", "turns" FROM "NodeRun";
DROP TABLE "NodeRun";
ALTER TABLE "new_NodeRun" RENAME TO "NodeRun";
CREATE INDEX "NodeRun_runId_startedAt_idx" ON "NodeRun"("runId", "startedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "TaintRecord_runId_sequence_idx" ON "TaintRecord"("runId", "sequence");

