-- CreateTable
CREATE TABLE "WorkflowTestSettings" (
    "workflowId" TEXT NOT NULL,
    "scorers" TEXT NOT NULL DEFAULT '[]',
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowTestSettings_pkey" PRIMARY KEY ("workflowId")
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Dataset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetRow" (
    "datasetId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "line" INTEGER NOT NULL,
    "input" TEXT NOT NULL,
    "expected" TEXT,

    CONSTRAINT "DatasetRow_pkey" PRIMARY KEY ("datasetId","position")
);

-- CreateTable
CREATE TABLE "Evaluation" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "version" INTEGER,
    "document" TEXT NOT NULL,
    "scorers" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL,
    "error" TEXT,
    "by" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "Evaluation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvaluationRow" (
    "evaluationId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "runId" TEXT,
    "status" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "pass" BOOLEAN,
    "scores" TEXT NOT NULL DEFAULT '[]',
    "outputs" TEXT,
    "runStatus" TEXT,
    "durationMs" INTEGER,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" DOUBLE PRECISION,
    "error" TEXT,

    CONSTRAINT "EvaluationRow_pkey" PRIMARY KEY ("evaluationId","position")
);

-- CreateIndex
CREATE UNIQUE INDEX "Dataset_workflowId_sha256_key" ON "Dataset"("workflowId", "sha256");

-- CreateIndex
CREATE INDEX "Evaluation_workflowId_startedAt_idx" ON "Evaluation"("workflowId", "startedAt");

-- CreateIndex
CREATE INDEX "Evaluation_datasetId_startedAt_idx" ON "Evaluation"("datasetId", "startedAt");

-- CreateIndex
CREATE INDEX "EvaluationRow_evaluationId_status_idx" ON "EvaluationRow"("evaluationId", "status");

-- AddForeignKey
ALTER TABLE "WorkflowTestSettings" ADD CONSTRAINT "WorkflowTestSettings_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Dataset" ADD CONSTRAINT "Dataset_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DatasetRow" ADD CONSTRAINT "DatasetRow_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Evaluation" ADD CONSTRAINT "Evaluation_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Evaluation" ADD CONSTRAINT "Evaluation_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvaluationRow" ADD CONSTRAINT "EvaluationRow_evaluationId_fkey" FOREIGN KEY ("evaluationId") REFERENCES "Evaluation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

