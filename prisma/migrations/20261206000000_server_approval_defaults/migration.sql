-- The registry's default approval policies per MCP server (set on /servers).
ALTER TABLE "McpServer" ADD COLUMN "approval" TEXT;
