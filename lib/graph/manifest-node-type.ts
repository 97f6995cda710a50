import type { Catalogue, NodeManifest } from "../manifest/browser";
import type { NodeTypeInfo, NodeTypes } from "./node-type-info";

/**
 * What the graph needs from a node folder's manifests. Types only come from
 * lib/manifest, so lib/graph stays free of its loader.
 *
 * @example nodeTypeFromManifest(catalogue.nodes[0].manifest!)
 */
export function nodeTypeFromManifest(manifest: NodeManifest): NodeTypeInfo {
  const { interface: identity } = manifest;
  return {
    title: identity.title,
    description: identity.description,
    kind: identity.kind,
    inputs: identity.inputs,
    outputs: identity.outputs,
    serviceConnectors: identity.serviceConnectors,
    ...(manifest.config ? { configSchema: manifest.config.configSchema } : {}),
    hasToolExchange: manifest.toolExchange !== undefined,
    conditionalOutputs: (manifest.events ?? []).filter((row) => row.when !== undefined).map((row) => row.emit),
  };
}

/**
 * A node type lookup over a linted catalogue. A node whose interface.yaml is
 * broken has no manifest and so is unknown to the graph (the lint says why).
 */
export function catalogueNodeTypes(catalogue: Pick<Catalogue, "nodes">): NodeTypes {
  const types = new Map<string, NodeTypeInfo>();
  for (const node of catalogue.nodes) if (node.manifest) types.set(node.name, nodeTypeFromManifest(node.manifest));
  return (type) => types.get(type);
}
