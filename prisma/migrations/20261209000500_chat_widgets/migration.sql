-- Chat widgets: a workflow's chat embedded on other sites, with an origin allowlist and its own token.
CREATE TABLE "ChatWidget" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "origins" TEXT NOT NULL DEFAULT '[]',
    "tokenHash" TEXT NOT NULL,
    "tokenHint" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "perMinute" INTEGER NOT NULL DEFAULT 10,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ChatWidget_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ChatWidget_tokenHash_key" ON "ChatWidget"("tokenHash");
CREATE INDEX "ChatWidget_workflowId_idx" ON "ChatWidget"("workflowId");

-- A visitor's thread belongs to its widget; a deleted widget leaves its threads, unlinked.
ALTER TABLE "ChatThread" ADD COLUMN "widgetId" TEXT REFERENCES "ChatWidget" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "ChatThread_widgetId_updatedAt_idx" ON "ChatThread"("widgetId", "updatedAt");
