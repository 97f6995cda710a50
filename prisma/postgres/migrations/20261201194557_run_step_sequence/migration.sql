-- AlterTable
ALTER TABLE "RunStep" ADD COLUMN     "sequence" INTEGER NOT NULL DEFAULT 0;

