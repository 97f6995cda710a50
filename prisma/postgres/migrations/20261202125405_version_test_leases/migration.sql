-- AlterTable
ALTER TABLE "WorkflowVersion" ADD COLUMN     "testAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "testHolder" TEXT,
ADD COLUMN     "testStartedAt" TIMESTAMP(3);

