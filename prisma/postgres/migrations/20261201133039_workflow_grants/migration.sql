-- AlterTable
ALTER TABLE "NodeCredential" ADD COLUMN     "origins" TEXT NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "WorkflowGrant" (
    "workflowId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "origins" TEXT NOT NULL DEFAULT '[]',
    "grantedBy" TEXT NOT NULL,
    "grantedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowGrant_pkey" PRIMARY KEY ("workflowId","kind","resource")
);

-- AddForeignKey
ALTER TABLE "WorkflowGrant" ADD CONSTRAINT "WorkflowGrant_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- allowedAgents is retired: every entry becomes a list here (absent meant "every agent": []),
-- and the app's start moves each list into grants once, then clears it (lib/db/grant-migration.ts).
UPDATE "McpServer" SET "allowedAgents" = '[]' WHERE "allowedAgents" IS NULL;
