import type { PrismaClient } from "../generated/prisma/client";
import { parseWorkflow, serverUses } from "../graph";
import { toDatabaseError } from "./database-error";

/** Who the grants made from allowedAgents name as their granter. */
export const migrationGranter = "migration (allowedAgents)";

/**
 * Moves the retired `allowedAgents` of each registry server into grants,
 * once: the SQL migration turned every server's absent list into `[]`
 * ("every agent"); here each server still holding a list is granted to
 * every saved workflow that uses it through an agent the list lets in (an
 * empty list: every such workflow), then its list is cleared, so it is
 * never moved again. A workflow whose document does not parse is skipped.
 * Runs on every start (scripts/prepare-app.ts) and does nothing once done.
 */
export async function migrateAllowedAgents(client: PrismaClient): Promise<{ servers: number; grants: number }> {
  try {
    const servers = await client.mcpServer.findMany({ where: { allowedAgents: { not: null } }, select: { id: true, allowedAgents: true } });
    if (servers.length === 0) return { servers: 0, grants: 0 };
    const workflows = await client.workflow.findMany({ select: { id: true, document: true } });
    const uses = workflows.flatMap((workflow) => {
      const parsed = parseWorkflow(safeJson(workflow.document));
      return parsed.ok ? serverUses(parsed.workflow).map((use) => ({ ...use, workflowId: workflow.id })) : [];
    });
    let grants = 0;
    for (const server of servers) {
      const allowed = agentList(server.allowedAgents);
      const workflowIds = new Set(
        uses.filter((use) => use.serverId === server.id && (allowed.length === 0 || allowed.includes(use.agentId) || allowed.includes(use.agentType))).map((use) => use.workflowId),
      );
      await client.$transaction([
        ...[...workflowIds].map((workflowId) =>
          client.workflowGrant.upsert({
            where: { workflowId_kind_resource: { workflowId, kind: "server", resource: server.id } },
            create: { workflowId, kind: "server", resource: server.id, grantedBy: migrationGranter },
            update: {},
          }),
        ),
        client.mcpServer.update({ where: { id: server.id }, data: { allowedAgents: null } }),
      ]);
      grants += workflowIds.size;
    }
    return { servers: servers.length, grants };
  } catch (error) {
    throw toDatabaseError(error, "move the servers' allowedAgents into workflow grants");
  }
}

function agentList(text: string | null): string[] {
  const parsed = safeJson(text ?? "[]");
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
