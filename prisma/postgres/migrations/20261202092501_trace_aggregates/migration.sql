-- DropIndex
DROP INDEX "ToolCall_nodeRunId_idx";

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "callCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "longestCallMs" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "turnCostUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "turnCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "turnInputTokens" INTEGER,
ADD COLUMN     "turnOutputTokens" INTEGER,
ADD COLUMN     "turnsWithoutCost" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "RunStep" ADD COLUMN     "turnCallsBefore" INTEGER,
ADD COLUMN     "turnNodeRunId" TEXT,
ADD COLUMN     "turnSequence" INTEGER,
ADD COLUMN     "turnStartedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "NodeRun" ADD COLUMN     "changeSequence" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "RunCallTotal" (
    "runId" TEXT NOT NULL,
    "nodeRunId" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "tainted" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RunCallTotal_pkey" PRIMARY KEY ("runId","nodeRunId","tool")
);

-- CreateIndex
CREATE INDEX "RunStep_runId_turnNodeRunId_turnCallsBefore_turnSequence_idx" ON "RunStep"("runId", "turnNodeRunId", "turnCallsBefore", "turnSequence");

-- CreateIndex
CREATE INDEX "RunStep_runId_sequence_idx" ON "RunStep"("runId", "sequence");

-- CreateIndex
CREATE INDEX "RunStep_runId_kind_idx" ON "RunStep"("runId", "kind");

-- CreateIndex
CREATE INDEX "ToolCall_nodeRunId_sequence_idx" ON "ToolCall"("nodeRunId", "sequence");

-- AddForeignKey
ALTER TABLE "RunCallTotal" ADD CONSTRAINT "RunCallTotal_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Backfill: the turns recorded so far (a model-turn step with a row; older entries have none and stay out, as the reads left them out).
UPDATE "RunStep" SET
  "turnNodeRunId" = ("value"::jsonb) #>> '{row,nodeRunId}',
  "turnStartedAt" = ((("value"::jsonb) #>> '{row,startedAt}')::timestamptz AT TIME ZONE 'UTC'),
  "turnSequence" = COALESCE((("value"::jsonb) #>> '{row,sequence}')::integer, 0)
WHERE "kind" = 'model-turn' AND jsonb_typeof(("value"::jsonb) #> '{row,nodeRunId}') = 'string';

-- Its place among its node run's calls by the run's write order (as the trace read placed it), else as its row counted.
UPDATE "RunStep" AS s SET "turnCallsBefore" = CASE
    WHEN s."sequence" > 0 AND EXISTS (SELECT 1 FROM "ToolCall" AS c WHERE c."runId" = s."runId" AND c."nodeRunId" = s."turnNodeRunId")
      THEN (SELECT COUNT(*) FROM "ToolCall" AS c WHERE c."runId" = s."runId" AND c."nodeRunId" = s."turnNodeRunId" AND c."sequence" < s."sequence")
    ELSE COALESCE(((s."value"::jsonb) #>> '{row,callsBefore}')::integer, 0)
  END
WHERE s."turnNodeRunId" IS NOT NULL;

UPDATE "Run" SET
  "callCount" = (SELECT COUNT(*) FROM "ToolCall" WHERE "ToolCall"."runId" = "Run"."id"),
  "turnCount" = turns."count",
  "turnInputTokens" = turns."inputTokens",
  "turnOutputTokens" = turns."outputTokens",
  "turnCostUsd" = COALESCE(turns."costUsd", 0),
  "turnsWithoutCost" = turns."withoutCost"
FROM (
  SELECT "runId",
    COUNT(*) AS "count",
    SUM((("value"::jsonb) #>> '{row,inputTokens}')::integer) AS "inputTokens",
    SUM((("value"::jsonb) #>> '{row,outputTokens}')::integer) AS "outputTokens",
    SUM((("value"::jsonb) #>> '{row,costUsd}')::double precision) AS "costUsd",
    COUNT(*) - COUNT((("value"::jsonb) #>> '{row,costUsd}')) AS "withoutCost"
  FROM "RunStep" WHERE "turnNodeRunId" IS NOT NULL GROUP BY "runId"
) AS turns
WHERE turns."runId" = "Run"."id";

UPDATE "Run" SET "callCount" = (SELECT COUNT(*) FROM "ToolCall" WHERE "ToolCall"."runId" = "Run"."id") WHERE "turnCount" = 0;

-- The calls counted by node run and tool, and the longest call.
INSERT INTO "RunCallTotal" ("runId", "nodeRunId", "tool", "calls", "errors", "tainted", "durationMs", "inputTokens", "outputTokens")
SELECT "runId", COALESCE("nodeRunId", ''), "tool", COUNT(*), SUM(CASE WHEN "isError" THEN 1 ELSE 0 END), SUM(CASE WHEN "tainted" THEN 1 ELSE 0 END), SUM("durationMs"), COALESCE(SUM("inputTokens"), 0), COALESCE(SUM("outputTokens"), 0)
FROM "ToolCall" GROUP BY "runId", COALESCE("nodeRunId", ''), "tool";

UPDATE "Run" SET "longestCallMs" = COALESCE((SELECT MAX("durationMs") FROM "ToolCall" WHERE "ToolCall"."runId" = "Run"."id"), 0);
