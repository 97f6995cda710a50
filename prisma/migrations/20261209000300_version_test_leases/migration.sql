-- A version's test run records when it started, which process runs it and how often it started: a run left by a
-- stopped process is taken up again by the start-up sweep.
ALTER TABLE "WorkflowVersion" ADD COLUMN "testStartedAt" DATETIME;
ALTER TABLE "WorkflowVersion" ADD COLUMN "testHolder" TEXT;
ALTER TABLE "WorkflowVersion" ADD COLUMN "testAttempts" INTEGER NOT NULL DEFAULT 0;
