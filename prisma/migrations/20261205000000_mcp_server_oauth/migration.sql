-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN "allowedTools" TEXT;
ALTER TABLE "McpServer" ADD COLUMN "oauth" TEXT;

-- CreateTable
CREATE TABLE "McpServerOAuth" (
    "serverId" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "needsReconnect" TEXT,
    "connectedAt" DATETIME,
    "connectedBy" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "McpServerOAuth_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "McpServer" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

