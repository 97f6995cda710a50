-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "threadId" TEXT,
ADD COLUMN     "threadTurn" INTEGER;

-- CreateTable
CREATE TABLE "ChatThread" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "place" TEXT NOT NULL DEFAULT 'page',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChatThread_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChatThread_workflowId_ownerId_updatedAt_idx" ON "ChatThread"("workflowId", "ownerId", "updatedAt");

-- CreateIndex
CREATE INDEX "Run_threadId_threadTurn_idx" ON "Run"("threadId", "threadTurn");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "ChatThread"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatThread" ADD CONSTRAINT "ChatThread_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

