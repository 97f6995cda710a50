import { taskToolDefinition, type TaskToolDefinition, type Workflow, type WorkflowNode } from "../graph";
import type { NodeManifest } from "../manifest";

/** One method of a service node on the canvas, as the workflow's endpoint offers it. */
export interface ServiceOffering {
  kind: "service";
  /** The name the endpoint lists (the method, or `<nodeId>__<method>` when two nodes offer one name). */
  name: string;
  node: WorkflowNode;
  manifest: NodeManifest;
  /** The offering connector whose methods are served. */
  connector: string;
  method: string;
}

/** One titled Task Start, offered as a task-required tool. */
export interface TaskOffering {
  kind: "task";
  name: string;
  taskStartId: string;
  definition: TaskToolDefinition;
}

export type EndpointOffering = ServiceOffering | TaskOffering;

/**
 * What a workflow offers an outside MCP host: every method of every
 * offering connector of every service node on the canvas (wired or not,
 * inside a task's sub-flow or not), then every Task Start that has a title
 * and a description. Names are unique: see endpointToolNames.
 *
 * @example workflowOfferings(workflow, manifestOf).map((offer) => offer.name) // ["convertUnits", "listUnits", "answer_a_unit_question"]
 */
export function workflowOfferings(workflow: Pick<Workflow, "nodes">, manifestOf: (type: string) => NodeManifest | undefined): EndpointOffering[] {
  const offerings: Array<Omit<ServiceOffering, "name"> | Omit<TaskOffering, "name">> = [];
  for (const node of workflow.nodes) {
    const definition = taskToolDefinition(node);
    if (definition) {
      offerings.push({ kind: "task", taskStartId: node.id, definition });
      continue;
    }
    const manifest = manifestOf(node.type);
    for (const connector of manifest?.interface.serviceConnectors ?? []) {
      if (!connector.isService || !manifest) continue;
      for (const method of connector.methods) {
        if (manifest.service && Object.hasOwn(manifest.service, method)) offerings.push({ kind: "service", node, manifest, connector: connector.name, method });
      }
    }
  }
  // Service methods first, so a task whose title happens to match a method does not take the plain name from it.
  const ordered = [...offerings.filter((offer) => offer.kind === "service"), ...offerings.filter((offer) => offer.kind === "task")];
  const names = endpointToolNames(ordered.map((offer) => (offer.kind === "service" ? { owner: offer.node.id, name: offer.method } : { owner: offer.taskStartId, name: offer.definition.name })));
  return ordered.map((offer, index) => ({ ...offer, name: names[index] }) as EndpointOffering);
}

/**
 * Unique tool names for tools offered by several owners (nodes). A name
 * only one owner offers stays as it is; a name two owners offer becomes
 * `<owner>__<name>` for each of them, so neither is the "real" one. Names
 * keep to what MCP allows (letters, digits, `_`, `-`, `.`; at most 128).
 *
 * @example endpointToolNames([{ owner: "a", name: "convert" }, { owner: "b", name: "convert" }, { owner: "b", name: "list" }]) // ["a__convert", "b__convert", "list"]
 */
export function endpointToolNames(entries: ReadonlyArray<{ owner: string; name: string }>): string[] {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.name, (counts.get(entry.name) ?? 0) + 1);
  const taken = new Set<string>();
  return entries.map((entry) => {
    const wanted = (counts.get(entry.name) ?? 0) > 1 ? `${toolNamePart(entry.owner)}__${entry.name}` : entry.name;
    let name = toolNamePart(wanted).slice(0, 128);
    for (let index = 2; taken.has(name); index++) name = `${toolNamePart(wanted).slice(0, 120)}_${index}`;
    taken.add(name);
    return name;
  });
}

/** Characters MCP tool names may not hold become `-`. */
function toolNamePart(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/g, "-") || "tool";
}
