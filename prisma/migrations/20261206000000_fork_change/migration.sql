-- A fork records what it changed: a result, an agent's prompt or model, or the document.
ALTER TABLE "Run" ADD COLUMN "forkChange" TEXT;
