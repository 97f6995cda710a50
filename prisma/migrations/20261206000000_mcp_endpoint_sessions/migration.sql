-- CreateTable
CREATE TABLE "McpEndpointSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "protocolVersion" TEXT NOT NULL,
    "clientInfo" TEXT NOT NULL,
    "capabilities" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" DATETIME
);

-- CreateTable
CREATE TABLE "McpEndpointTask" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusMessage" TEXT,
    "ttlMs" INTEGER,
    "pollIntervalMs" INTEGER NOT NULL,
    "result" TEXT,
    "runId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUpdatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "McpEndpointSession_closedAt_lastSeenAt_idx" ON "McpEndpointSession"("closedAt", "lastSeenAt");

-- CreateIndex
CREATE INDEX "McpEndpointTask_scope_createdAt_idx" ON "McpEndpointTask"("scope", "createdAt");

-- CreateIndex
CREATE INDEX "McpEndpointTask_status_lastUpdatedAt_idx" ON "McpEndpointTask"("status", "lastUpdatedAt");

