import type { ConfigManifest, Port, ServiceConnector } from "../manifest/browser";
import type { WorkflowNode } from "./workflow";

/**
 * What travels on a port: the manifest's types, plus `any` for the built-in
 * ports that take whatever value reaches them (End's and Task End's result).
 */
export type PortType = Port["type"] | "any";

/** A port as the graph sees it: a manifest port, or a built-in's (which may be `any`). */
export interface NodePort {
  name: string;
  type: PortType;
  description: string;
  required: boolean;
}

/** A node's config schema: a JSON Schema object, as config.yaml declares it. */
export type ConfigSchema = ConfigManifest["configSchema"];

/** One thing wrong with a node's config; `field` is a dot path inside the config. */
export interface ConfigIssue {
  field?: string;
  message: string;
}

/** The ports of one node, for node types whose ports follow their config. */
export interface NodePorts {
  inputs: readonly NodePort[];
  outputs: readonly NodePort[];
}

/**
 * Everything the graph needs to know about a node type, whether it comes
 * from a folder in nodes/ (see nodeTypeFromManifest) or is built in (see
 * builtin-nodes.ts). Validation, the canvas and the planner read only this.
 */
export interface NodeTypeInfo {
  title: string;
  description: string;
  kind: "PromiseNode" | "CallbackNode";
  inputs: readonly NodePort[];
  outputs: readonly NodePort[];
  serviceConnectors: readonly ServiceConnector[];
  configSchema?: ConfigSchema;
  /** An agent: it declares a toolExchange and runs a tool loop. */
  hasToolExchange: boolean;
  /** Outputs that fire only sometimes: their api/events.yaml row has a `when`. */
  conditionalOutputs: readonly string[];
  /** A Task Start's bottom handle, which offers its sub-flow to an agent as a tool. */
  taskHandle?: string;
  /** For types whose ports follow their config (Start, Task Start): the ports of one node. */
  portsFor?: (config: Record<string, unknown>) => NodePorts;
  /** For built-ins, whose config is checked in code rather than by an injected JSON Schema checker. */
  checkConfig?: (config: Record<string, unknown>) => ConfigIssue[];
}

/** A node type with no ports, connectors or tools: a task node, before its parts are filled in. */
export function bareNodeType(title: string, description: string): NodeTypeInfo {
  return { title, description, kind: "PromiseNode", inputs: [], outputs: [], serviceConnectors: [], hasToolExchange: false, conditionalOutputs: [] };
}

/** Looks a node type up by name: the catalogue of nodes/, wrapped by the caller. */
export type NodeTypes = (type: string) => NodeTypeInfo | undefined;

/** The ports of one node: its type's, or those its config declares. */
export function nodePorts(node: Pick<WorkflowNode, "config">, info: NodeTypeInfo): NodePorts {
  return info.portsFor ? info.portsFor(node.config) : { inputs: info.inputs, outputs: info.outputs };
}
