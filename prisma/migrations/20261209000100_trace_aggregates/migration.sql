-- Run totals kept with the journal (lib/db/run-aggregates.ts): the runs list and the run page's overview read them
-- instead of the rows.
ALTER TABLE "Run" ADD COLUMN "callCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "turnCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "turnInputTokens" INTEGER;
ALTER TABLE "Run" ADD COLUMN "turnOutputTokens" INTEGER;
ALTER TABLE "Run" ADD COLUMN "turnCostUsd" REAL NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "turnsWithoutCost" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "longestCallMs" INTEGER NOT NULL DEFAULT 0;

-- A run's calls counted by node run and tool.
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

    PRIMARY KEY ("runId", "nodeRunId", "tool"),
    CONSTRAINT "RunCallTotal_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A node run's last change in the run's count of node-run changes: a live page asks for the node runs changed since its last poll.
ALTER TABLE "NodeRun" ADD COLUMN "changeSequence" INTEGER NOT NULL DEFAULT 0;

-- A model turn's place, copied from its row, so turns are paged without reading the values.
ALTER TABLE "RunStep" ADD COLUMN "turnNodeRunId" TEXT;
ALTER TABLE "RunStep" ADD COLUMN "turnStartedAt" DATETIME;
ALTER TABLE "RunStep" ADD COLUMN "turnCallsBefore" INTEGER;
ALTER TABLE "RunStep" ADD COLUMN "turnSequence" INTEGER;
CREATE INDEX "RunStep_runId_turnNodeRunId_turnCallsBefore_turnSequence_idx" ON "RunStep"("runId", "turnNodeRunId", "turnCallsBefore", "turnSequence");
-- A live poll's cursor: the run's highest write count.
CREATE INDEX "RunStep_runId_sequence_idx" ON "RunStep"("runId", "sequence");
-- The waits and the step nodes' results among a run's steps, without passing over its turns.
CREATE INDEX "RunStep_runId_kind_idx" ON "RunStep"("runId", "kind");
-- A node run's calls in write order: a live poll counts those before its cursor from the index alone.
DROP INDEX "ToolCall_nodeRunId_idx";
CREATE INDEX "ToolCall_nodeRunId_sequence_idx" ON "ToolCall"("nodeRunId", "sequence");

-- Backfill: the turns recorded so far (a model-turn step with a row; older entries have none and stay out, as the reads left them out).
UPDATE "RunStep" SET
  "turnNodeRunId" = json_extract("value", '$.row.nodeRunId'),
  "turnStartedAt" = replace(json_extract("value", '$.row.startedAt'), 'Z', '+00:00'),
  "turnSequence" = COALESCE(json_extract("value", '$.row.sequence'), 0)
WHERE "kind" = 'model-turn' AND json_valid("value") AND json_type("value", '$.row.nodeRunId') = 'text';

-- Its place among its node run's calls by the run's write order (as the trace read placed it), else as its row counted.
UPDATE "RunStep" SET "turnCallsBefore" = CASE
    WHEN "sequence" > 0 AND EXISTS (SELECT 1 FROM "ToolCall" AS c WHERE c."runId" = "RunStep"."runId" AND c."nodeRunId" = "RunStep"."turnNodeRunId")
      THEN (SELECT COUNT(*) FROM "ToolCall" AS c WHERE c."runId" = "RunStep"."runId" AND c."nodeRunId" = "RunStep"."turnNodeRunId" AND c."sequence" < "RunStep"."sequence")
    ELSE COALESCE(json_extract("value", '$.row.callsBefore'), 0)
  END
WHERE "turnNodeRunId" IS NOT NULL;

UPDATE "Run" SET
  "callCount" = (SELECT COUNT(*) FROM "ToolCall" WHERE "ToolCall"."runId" = "Run"."id"),
  "turnCount" = (SELECT COUNT(*) FROM "RunStep" WHERE "RunStep"."runId" = "Run"."id" AND "turnNodeRunId" IS NOT NULL),
  "turnInputTokens" = (SELECT SUM(json_extract("value", '$.row.inputTokens')) FROM "RunStep" WHERE "RunStep"."runId" = "Run"."id" AND "turnNodeRunId" IS NOT NULL),
  "turnOutputTokens" = (SELECT SUM(json_extract("value", '$.row.outputTokens')) FROM "RunStep" WHERE "RunStep"."runId" = "Run"."id" AND "turnNodeRunId" IS NOT NULL),
  "turnCostUsd" = COALESCE((SELECT SUM(json_extract("value", '$.row.costUsd')) FROM "RunStep" WHERE "RunStep"."runId" = "Run"."id" AND "turnNodeRunId" IS NOT NULL), 0),
  "turnsWithoutCost" = (SELECT COUNT(*) FROM "RunStep" WHERE "RunStep"."runId" = "Run"."id" AND "turnNodeRunId" IS NOT NULL AND json_extract("value", '$.row.costUsd') IS NULL);

-- The calls counted by node run and tool, and the longest call.
INSERT INTO "RunCallTotal" ("runId", "nodeRunId", "tool", "calls", "errors", "tainted", "durationMs", "inputTokens", "outputTokens")
SELECT "runId", COALESCE("nodeRunId", ''), "tool", COUNT(*), SUM(CASE WHEN "isError" THEN 1 ELSE 0 END), SUM(CASE WHEN "tainted" THEN 1 ELSE 0 END), SUM("durationMs"), COALESCE(SUM("inputTokens"), 0), COALESCE(SUM("outputTokens"), 0)
FROM "ToolCall" GROUP BY "runId", COALESCE("nodeRunId", ''), "tool";

UPDATE "Run" SET "longestCallMs" = COALESCE((SELECT MAX("durationMs") FROM "ToolCall" WHERE "ToolCall"."runId" = "Run"."id"), 0);
