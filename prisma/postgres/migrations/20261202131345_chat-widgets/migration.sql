-- AlterTable
ALTER TABLE "ChatThread" ADD COLUMN     "widgetId" TEXT;

-- CreateTable
CREATE TABLE "ChatWidget" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "origins" TEXT NOT NULL DEFAULT '[]',
    "tokenHash" TEXT NOT NULL,
    "tokenHint" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "perMinute" INTEGER NOT NULL DEFAULT 10,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChatWidget_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ChatWidget_tokenHash_key" ON "ChatWidget"("tokenHash");

-- CreateIndex
CREATE INDEX "ChatWidget_workflowId_idx" ON "ChatWidget"("workflowId");

-- CreateIndex
CREATE INDEX "ChatThread_widgetId_updatedAt_idx" ON "ChatThread"("widgetId", "updatedAt");

-- AddForeignKey
ALTER TABLE "ChatThread" ADD CONSTRAINT "ChatThread_widgetId_fkey" FOREIGN KEY ("widgetId") REFERENCES "ChatWidget"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatWidget" ADD CONSTRAINT "ChatWidget_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

