-- How each run started (origin), the HTTP API's idempotency keys, and webhook and schedule triggers.
-- AlterTable
ALTER TABLE "Run" ADD COLUMN "origin" TEXT;
ALTER TABLE "Run" ADD COLUMN "originKind" TEXT;

-- CreateTable
CREATE TABLE "RunStartKey" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("scope", "key")
);

-- CreateTable
CREATE TABLE "WorkflowTrigger" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "config" TEXT NOT NULL DEFAULT '{}',
    "hookIdHash" TEXT,
    "hookIdHint" TEXT,
    "secret" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastTickAt" DATETIME,
    CONSTRAINT "WorkflowTrigger_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TriggerDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "triggerId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "deliveryId" TEXT,
    "acceptedDeliveryId" TEXT,
    "status" INTEGER NOT NULL,
    "reason" TEXT,
    "runId" TEXT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TriggerDelivery_triggerId_fkey" FOREIGN KEY ("triggerId") REFERENCES "WorkflowTrigger" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ScheduleTick" (
    "triggerId" TEXT NOT NULL,
    "tickAt" DATETIME NOT NULL,
    "runId" TEXT NOT NULL,
    "claimedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("triggerId", "tickAt")
);

-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN "triggersPaused" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowTrigger_hookIdHash_key" ON "WorkflowTrigger"("hookIdHash");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowTrigger_workflowId_nodeId_key" ON "WorkflowTrigger"("workflowId", "nodeId");

-- CreateIndex
CREATE INDEX "TriggerDelivery_workflowId_receivedAt_idx" ON "TriggerDelivery"("workflowId", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "TriggerDelivery_triggerId_acceptedDeliveryId_key" ON "TriggerDelivery"("triggerId", "acceptedDeliveryId");

-- CreateIndex
CREATE INDEX "Run_originKind_startedAt_idx" ON "Run"("originKind", "startedAt");

