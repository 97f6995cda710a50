-- A fork records its parent run and the step it was forked at.
ALTER TABLE "Run" ADD COLUMN "forkedFromRunId" TEXT;
ALTER TABLE "Run" ADD COLUMN "forkedAtStep" TEXT;
