-- A cap on the messages all of a widget's visitors together may send a minute.
ALTER TABLE "ChatWidget" ADD COLUMN "overallPerMinute" INTEGER NOT NULL DEFAULT 100;
