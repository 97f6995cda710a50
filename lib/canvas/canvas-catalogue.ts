import { bareNodeType, builtinNodes, type NodeTypeInfo, type NodeTypes, nodeTypeFromManifest } from "../graph";
// The manifest's browser entry, not its index: the browser gets this module, and the index brings in the file reader.
import { type Catalogue, type CatalogueNode, type Problem, loadRules } from "../manifest/browser";

/** Problems that mean a manifest file could not be read or did not fit its schema: the node would fail when it runs. */
const brokenFileRules = new Set(loadRules.filter((rule) => rule.severity === "error" && rule.id !== "lint-internal").map((rule) => rule.id));

/** One tool a service connector offers, as a model reads it: what the token cost is counted over. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A lint finding about a node type, as the canvas shows it on every node of that type. */
export interface LintFinding {
  severity: Problem["severity"];
  rule: string;
  message: string;
  /** `file:line:col`, so the author can open the manifest. */
  place: string;
}

/**
 * A node type as the browser gets it: what the graph needs (NodeTypeInfo
 * without functions), what the palette shows, and what the token estimate
 * reads. Plain JSON, so a server page can hand it to the canvas.
 */
export interface CanvasNodeType extends Omit<NodeTypeInfo, "portsFor" | "checkConfig"> {
  name: string;
  category: string;
  whenToUse: string;
  builtin: boolean;
  /** False when interface.yaml is broken: listed so the author sees why, but not addable. */
  usable: boolean;
  /** An agent on the built-in deterministic model (toolExchange `adapter: offline`). */
  offline: boolean;
  /** An agent's consuming connector whose tools it is offered (toolExchange `from`). */
  toolConnector?: string;
  /** For each offering connector, the tools it serves (its methods found in api/service.yaml). */
  tools: Record<string, ToolSpec[]>;
  uiOrder?: string[];
  lint: LintFinding[];
}

export interface CanvasCatalogue {
  types: CanvasNodeType[];
}

/**
 * The catalogue the canvas works from: the built-ins first, then every node
 * folder (broken ones marked unusable), each with its lint findings.
 *
 * @example const catalogue = canvasCatalogue(await lintNodes("nodes"));
 */
export function canvasCatalogue(catalogue: Pick<Catalogue, "nodes">): CanvasCatalogue {
  const builtins = builtinNodes.map((node): CanvasNodeType => {
    const { portsFor: _ports, checkConfig: _check, "ui:order": uiOrder, ...info } = node;
    return { ...info, builtin: true, usable: true, offline: false, tools: {}, lint: [], ...(uiOrder ? { uiOrder } : {}) };
  });
  return { types: [...builtins, ...catalogue.nodes.map(catalogueNodeType)] };
}

function catalogueNodeType(node: CatalogueNode): CanvasNodeType {
  const lint = node.problems.map((problem): LintFinding => ({
    severity: problem.severity,
    rule: problem.rule,
    message: problem.message,
    place: `${problem.file}:${problem.line}:${problem.column}`,
  }));
  const manifest = node.manifest;
  if (!manifest) {
    return {
      ...bareNodeType(node.name, "This node's interface.yaml is missing or broken, so it cannot be used; the lint says why."),
      name: node.name,
      category: "Broken",
      whenToUse: "",
      builtin: false,
      usable: false,
      offline: false,
      tools: {},
      lint,
    };
  }
  const info = nodeTypeFromManifest(manifest);
  const tools: Record<string, ToolSpec[]> = {};
  for (const connector of manifest.interface.serviceConnectors) {
    if (!connector.isService) continue;
    // The same list the service node's MCP server answers tools/list with.
    tools[connector.name] = connector.methods.flatMap((name) => {
      const method = manifest.service && Object.hasOwn(manifest.service, name) ? manifest.service[name] : undefined;
      return method ? [{ name, description: method.description, inputSchema: method.inputs as Record<string, unknown> }] : [];
    });
  }
  const uiOrder = manifest.config?.["ui:order"];
  return {
    ...info,
    name: node.name,
    category: manifest.interface.category,
    whenToUse: manifest.interface.whenToUse,
    builtin: false,
    // A node whose run.yaml (or any other manifest) is broken is listed with its findings, but not offered.
    usable: !node.problems.some((problem) => problem.severity === "error" && brokenFileRules.has(problem.rule)),
    offline: manifest.toolExchange?.adapter === "offline",
    ...(manifest.toolExchange ? { toolConnector: manifest.toolExchange.from } : {}),
    tools,
    ...(uiOrder ? { uiOrder } : {}),
    lint,
  };
}

/** A node type lookup over the canvas catalogue; built-ins are found by lib/graph itself. */
export function canvasNodeTypes(catalogue: CanvasCatalogue): NodeTypes {
  const types = new Map<string, NodeTypeInfo>();
  for (const type of catalogue.types) if (!type.builtin && type.usable) types.set(type.name, type);
  return (type) => types.get(type);
}

