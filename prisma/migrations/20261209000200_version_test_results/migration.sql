-- Each saved version records how the workflow's test cases came out against it.
ALTER TABLE "WorkflowVersion" ADD COLUMN "testStatus" TEXT;
ALTER TABLE "WorkflowVersion" ADD COLUMN "testsPassed" INTEGER;
ALTER TABLE "WorkflowVersion" ADD COLUMN "testsFailed" INTEGER;
ALTER TABLE "WorkflowVersion" ADD COLUMN "testSummary" TEXT;
