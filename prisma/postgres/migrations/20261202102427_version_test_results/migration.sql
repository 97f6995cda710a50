-- AlterTable
ALTER TABLE "WorkflowVersion" ADD COLUMN     "testStatus" TEXT,
ADD COLUMN     "testSummary" TEXT,
ADD COLUMN     "testsFailed" INTEGER,
ADD COLUMN     "testsPassed" INTEGER;

