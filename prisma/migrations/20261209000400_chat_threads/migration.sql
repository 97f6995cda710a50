-- Chat threads: a conversation with a workflow, each turn a run linked to it.
CREATE TABLE "ChatThread" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "place" TEXT NOT NULL DEFAULT 'page',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ChatThread_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "ChatThread_workflowId_ownerId_updatedAt_idx" ON "ChatThread"("workflowId", "ownerId", "updatedAt");

-- A deleted thread leaves its runs (their traces) unlinked.
ALTER TABLE "Run" ADD COLUMN "threadId" TEXT REFERENCES "ChatThread" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Run" ADD COLUMN "threadTurn" INTEGER;
CREATE INDEX "Run_threadId_threadTurn_idx" ON "Run"("threadId", "threadTurn");
