-- CreateTable
CREATE TABLE "McpEndpointSession" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "protocolVersion" TEXT NOT NULL,
    "clientInfo" TEXT NOT NULL,
    "capabilities" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "McpEndpointSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "McpEndpointTask" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusMessage" TEXT,
    "ttlMs" INTEGER,
    "pollIntervalMs" INTEGER NOT NULL,
    "result" TEXT,
    "runId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUpdatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "McpEndpointTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "McpEndpointSession_closedAt_lastSeenAt_idx" ON "McpEndpointSession"("closedAt", "lastSeenAt");

-- CreateIndex
CREATE INDEX "McpEndpointTask_scope_createdAt_idx" ON "McpEndpointTask"("scope", "createdAt");

-- CreateIndex
CREATE INDEX "McpEndpointTask_status_lastUpdatedAt_idx" ON "McpEndpointTask"("status", "lastUpdatedAt");

