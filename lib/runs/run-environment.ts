import path from "node:path";
import { type PrismaClient, storedRunParts, PrismaServerRegistry, PrismaOAuthStateStore } from "../db";
import { cachedNodeTypes, type EngineEnvironment } from "../engine";
import { createLocalEnvironment } from "./local-environment";
import type { NodeTypes } from "../graph";
import { ConnectionManager, type ConnectionManagerOptions } from "../mcp";

export interface RunEnvironmentOptions {
  prisma: PrismaClient;
  /** Where node types are read (SWITCHBOARD_NODES_DIR, else ./nodes). */
  nodesDir?: string;
  /** Where a server's problems are said (a tool left out, a server that cannot be reached). */
  log?: (line: string) => void;
  /** What runs learn of servers' tools (lists read, tools/list_changed): the web process keeps its palette's tool index with it. */
  toolNews?: Pick<ConnectionManagerOptions, "onToolsListed" | "onToolsChanged">;
}

/** The nodes/ folder runs read: SWITCHBOARD_NODES_DIR, else ./nodes. */
export function runNodesDir(nodesDir: string | undefined = process.env.SWITCHBOARD_NODES_DIR): string {
  return nodesDir ?? path.join(process.cwd(), "nodes");
}

/**
 * The node types of nodes/, read and linted once per version of the folder
 * (an edited node takes effect on the next run in development; in
 * production nodes/ is read once). What a start checks a graph against,
 * with no connection manager or credentials built.
 */
export function runNodeTypes(nodesDir?: string): Promise<NodeTypes> {
  return cachedNodeTypes(runNodesDir(nodesDir));
}

/**
 * The one engine environment of a run, wherever it runs (the embedded
 * worker, `npm run worker`, `workflow run`): node types from nodes/,
 * credentials from the encrypted credential store (then
 * SWITCHBOARD_CREDENTIAL_* variables) with the origins added to them
 * (SWITCHBOARD_CREDENTIAL_<NAME>_ORIGINS included), the workflow's grants
 * (read now: a grant made or revoked later counts from the next run), and a
 * connection manager over the MCP server registry, so an agent's
 * `{ mcp: "server-id" }` reaches a registered server; OAuth servers get
 * their stored tokens, refreshed, and servers may ask questions (MCP
 * elicitation), answered on the Questions page since every run here has a
 * journal. The engine disposes of it (closing every MCP session the run
 * opened) when the run ends, however it ends.
 */
export async function runEnvironment(options: RunEnvironmentOptions, workflowId: string | null): Promise<EngineEnvironment> {
  const log = options.log ?? ((line: string) => console.warn(line));
  const manager = new ConnectionManager(new PrismaServerRegistry(options.prisma), {
    oauthStore: new PrismaOAuthStateStore(options.prisma),
    answersQuestions: true,
    onProblem: (problem) => log(problem.tool ? `MCP server '${problem.serverId}': ${problem.message}` : problem.message),
    ...options.toolNews,
  });
  return createLocalEnvironment({
    nodesDir: runNodesDir(options.nodesDir),
    overrides: { ...(await storedRunParts(options.prisma, workflowId)), mcpTools: manager, dispose: () => manager.closeAll() },
  });
}
