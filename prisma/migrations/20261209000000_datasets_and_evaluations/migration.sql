-- Datasets of a workflow's Tests page, their evaluations on a version and each row's run and scores, and the workflow's scorers.
-- CreateTable
CREATE TABLE "WorkflowTestSettings" (
    "workflowId" TEXT NOT NULL PRIMARY KEY,
    "scorers" TEXT NOT NULL DEFAULT '[]',
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WorkflowTestSettings_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Dataset_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DatasetRow" (
    "datasetId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "line" INTEGER NOT NULL,
    "input" TEXT NOT NULL,
    "expected" TEXT,

    PRIMARY KEY ("datasetId", "position"),
    CONSTRAINT "DatasetRow_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Evaluation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "version" INTEGER,
    "document" TEXT NOT NULL,
    "scorers" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL,
    "error" TEXT,
    "by" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME,
    CONSTRAINT "Evaluation_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Evaluation_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EvaluationRow" (
    "evaluationId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "runId" TEXT,
    "status" TEXT NOT NULL,
    "score" REAL,
    "pass" BOOLEAN,
    "scores" TEXT NOT NULL DEFAULT '[]',
    "outputs" TEXT,
    "runStatus" TEXT,
    "durationMs" INTEGER,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" REAL,
    "error" TEXT,

    PRIMARY KEY ("evaluationId", "position"),
    CONSTRAINT "EvaluationRow_evaluationId_fkey" FOREIGN KEY ("evaluationId") REFERENCES "Evaluation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Dataset_workflowId_sha256_key" ON "Dataset"("workflowId", "sha256");

-- CreateIndex
CREATE INDEX "Evaluation_workflowId_startedAt_idx" ON "Evaluation"("workflowId", "startedAt");

-- CreateIndex
CREATE INDEX "Evaluation_datasetId_startedAt_idx" ON "Evaluation"("datasetId", "startedAt");

-- CreateIndex
CREATE INDEX "EvaluationRow_evaluationId_status_idx" ON "EvaluationRow"("evaluationId", "status");

