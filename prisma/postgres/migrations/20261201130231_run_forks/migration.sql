-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "forkedAtStep" TEXT,
ADD COLUMN     "forkedFromRunId" TEXT;

