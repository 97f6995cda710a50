-- AlterTable
ALTER TABLE "ChatWidget" ADD COLUMN     "overallPerMinute" INTEGER NOT NULL DEFAULT 100;

