-- The order a run took its steps in, counted with its ToolCall and TaintRecord rows: a fork keeps what came before its fork point by it.
ALTER TABLE "RunStep" ADD COLUMN "sequence" INTEGER NOT NULL DEFAULT 0;
