-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN     "allowedTools" TEXT,
ADD COLUMN     "oauth" TEXT;

-- CreateTable
CREATE TABLE "McpServerOAuth" (
    "serverId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "needsReconnect" TEXT,
    "connectedAt" TIMESTAMP(3),
    "connectedBy" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpServerOAuth_pkey" PRIMARY KEY ("serverId")
);

-- AddForeignKey
ALTER TABLE "McpServerOAuth" ADD CONSTRAINT "McpServerOAuth_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "McpServer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

