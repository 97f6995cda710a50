-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN     "approval" TEXT;

