import path from "node:path";
import { catalogueNodeTypes } from "../graph";
import { cachedCatalogue, type Catalogue } from "../manifest";
import { sharedSandbox } from "../sandbox";
import { type AgentTool, createToolIndex } from "../tools";
import { allowedPrivateOrigins } from "../security";
import type { EngineEnvironment, ToolRankerFactory } from "./environment";
import { credentialsFromEnvironment } from "./environment-credentials";
import { resolveModel } from "./model-resolver";

/** search_tools over an agent's own tools, ranked by the tool index. */
export const rankWithToolIndex: ToolRankerFactory = (tools) => {
  const index = createToolIndex(tools as AgentTool[]);
  return (query, limit) => index.search(query, limit).map((match) => match.tool as AgentTool);
};

/** Node types built once per catalogue version: the catalogue cache hands out the same object until a file changes. */
const nodeTypesOf = new WeakMap<Catalogue, ReturnType<typeof catalogueNodeTypes>>();

function nodeTypesOfCatalogue(catalogue: Catalogue): ReturnType<typeof catalogueNodeTypes> {
  let nodeTypes = nodeTypesOf.get(catalogue);
  if (!nodeTypes) nodeTypesOf.set(catalogue, (nodeTypes = catalogueNodeTypes(catalogue)));
  return nodeTypes;
}

/** The node types of a nodes/ folder alone (to check a graph), cached like the catalogue they come from. */
export async function cachedNodeTypes(nodesDir: string): Promise<ReturnType<typeof catalogueNodeTypes>> {
  return nodeTypesOfCatalogue(await cachedCatalogue(nodesDir));
}

/**
 * The engine's environment on one machine, without the canvas's tool
 * servers (lib/runs' createLocalEnvironment adds lib/mcp's): node types from nodes/, the
 * shared sandbox, models chosen by each agent's toolExchange, credentials
 * from the server's environment, and tool search for progressive discovery.
 * nodes/ is read, linted and turned into node types once per version of the
 * folder (see cachedCatalogue), not once per run.
 */
export async function createEngineEnvironment(options: { nodesDir?: string; overrides?: Partial<EngineEnvironment> } = {}): Promise<EngineEnvironment> {
  const catalogue = await cachedCatalogue(options.nodesDir ?? path.join(process.cwd(), "nodes"));
  return {
    catalogue,
    nodeTypes: nodeTypesOfCatalogue(catalogue),
    evaluator: await sharedSandbox(),
    models: resolveModel,
    credentials: (_nodeType, requirements, environmentAllowed) => credentialsFromEnvironment(requirements, process.env, environmentAllowed),
    rankTools: rankWithToolIndex,
    allowedPrivateOrigins: allowedPrivateOrigins(),
    ...options.overrides,
  };
}
