-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "forkChange" TEXT;

