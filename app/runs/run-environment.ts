import "server-only";
import { PrismaOAuthStateStore, PrismaServerRegistry, prisma, storedRunParts } from "@/lib/db";
import { createLocalEnvironment, type EngineEnvironment } from "@/lib/engine";
import { ConnectionManager } from "@/lib/mcp/connection-manager";

/**
 * The engine's environment for runs started from the app: node types from
 * nodes/, credentials from the encrypted credential store (falling back to
 * SWITCHBOARD_CREDENTIAL_* variables), and a connection manager over the
 * MCP server registry in the database, so an agent's
 * `{ mcp: "server-id", tools: [...] }` reaches a registered server. Built
 * per run from parts that are cheap to build: nodes/ is read and linted
 * once per version of the folder (an edited node takes effect on the next
 * run in development; in production nodes/ is read once), the workflow's
 * grants (servers and credentials it may use), and a newly
 * saved credential or server takes effect on the next run; the engine disposes of it (closing every MCP
 * session the run opened) when the run ends, however it ends.
 */
export async function appEnvironment(workflowId: string | null): Promise<EngineEnvironment> {
  const manager = new ConnectionManager(new PrismaServerRegistry(prisma()), {
    // OAuth servers: stored tokens sent and refreshed; one that cannot refresh is marked "reconnect" and the run says so.
    oauthStore: new PrismaOAuthStateStore(prisma()),
    // Runs started here have a journal and the Questions page: a server's questions (MCP elicitation) are answered by a person.
    answersQuestions: true,
    // The run's trace names a server that cannot be used; a tool left out of a list is only here.
    onProblem: (problem) => console.warn(problem.tool ? `MCP server '${problem.serverId}': ${problem.message}` : problem.message),
  });
  return createLocalEnvironment({
    overrides: {
      // The workflow's grants are read now: a grant made or revoked after this counts from the next run.
      ...(await storedRunParts(prisma(), workflowId)),
      mcpTools: manager,
      dispose: () => manager.closeAll(),
    },
  });
}
