import type { LoadedNode } from "../load-catalogue";
import type { NodeFileKey } from "../node-files";
import type { YamlPath } from "../source-file";
import { callLists } from "./call-lists";

/** Where a manifest string is, and what it may read there. */
export interface TemplateSite {
  in: NodeFileKey;
  path: YamlPath;
  text: string;
  /** The roots this place may read. */
  roots: ReadonlySet<string>;
  /** With the `calls` root: the call names readable here. */
  calls: readonly string[];
}

const exchangeRoots: Record<string, string[]> = {
  tool: ["tool", "config", "inputs"],
  call: ["call", "response", "config"],
  result: ["result", "config"],
  resultsGroup: ["results", "config"],
  choice: ["config", "inputs"],
  withheldChoice: ["config", "inputs"],
  continuity: ["response", "config"],
  transcript: ["response", "text", "toolCalls", "config"],
  usage: ["response"],
  maxTurns: ["config", "inputs"],
  stuckAfterRepeats: ["config", "inputs"],
};

/** Every string of a node's manifests that is read as a template, with its scope. */
export function templateSites(node: LoadedNode): TemplateSite[] {
  const sites: TemplateSite[] = [];
  const push = (location: NodeFileKey, path: YamlPath, value: unknown, roots: string[], calls: readonly string[] = []) =>
    walkStrings(value, path, (text, at) => sites.push({ in: location, path: at, text, roots: new Set([...roots, "user"]), calls }));

  for (const list of callLists(node)) {
    // `run` (the run, workflow and node ids) is given to steps and service methods, not to an agent's protocol.
    const base = list.method ? ["params", "config", "calls", "state", "run"] : list.in === "run" ? ["inputs", "config", "calls", "state", "run"] : ["inputs", "config", "calls", "state"];
    list.calls.forEach((call, index) => {
      const earlier = list.calls.slice(0, index).map((other) => other.name);
      const at = [...list.path, index];
      for (const [key, value] of Object.entries(call)) {
        if (key === "name" || key === "transport" || key === "terminator" || key === "encoding" || key === "state" || key === "loop") continue;
        const agentRun = list.in === "run" && node.parts.toolExchange !== undefined;
        // An agent's model request (its last run call) renders its body once, with `transcript` (the conversation so far) empty.
        const agentBody = agentRun && key === "body" && index === list.calls.length - 1;
        // Every call of an agent's run reads `history`: a chat turn's earlier messages (empty outside a chat).
        const agentRoots = [...(agentRun ? ["history"] : []), ...(agentBody ? ["transcript"] : [])];
        push(list.in, [...at, key], value, [...callKeyRoots(key, base, call.chunk !== undefined), ...agentRoots], earlier);
      }
    });
    if (list.method !== undefined) {
      const returns = node.parts.service?.[list.method]?.returns;
      push("service", [list.method, "returns"], returns, ["response", "status", "calls", "params", "config", "run"], list.calls.map((call) => call.name));
    }
  }
  const runCalls = (node.parts.run ?? []).map((call) => call.name);
  const eventRoots = ["response", "status", "calls", "inputs", "config", "text", "tool", "state", ...(node.parts.toolExchange ? [] : ["run"])];
  (node.parts.events ?? []).forEach((row, index) => {
    // A `from: complete` row also reads `events`: what the node's other rows have put out.
    const roots = row.from === "complete" ? [...eventRoots, "events"] : eventRoots;
    push("events", [index, "value"], row.value, roots, runCalls);
    push("events", [index, "when"], row.when, roots, runCalls);
  });
  for (const [key, value] of Object.entries(node.parts.toolExchange ?? {})) {
    const roots = exchangeRoots[key];
    if (roots) push("toolExchange", [key], value, roots, runCalls);
  }
  (node.parts.test?.testData ?? []).forEach((testCase, index) => {
    // A template field's value is the node's own template, filled from its inputs when it runs, not at test time.
    const templateFields = new Set(Object.entries(node.parts.config?.configSchema.properties ?? {}).filter(([, property]) => property["ui:field"] === "template").map(([name]) => name));
    for (const [name, value] of Object.entries(testCase.config)) if (!templateFields.has(name)) push("test", ["testData", index, "config", name], value, ["fixture"]);
    for (const key of ["inputs", "credentials"] as const) push("test", ["testData", index, key], testCase[key], ["fixture"]);
    push("test", ["testData", index, "call", "params"], testCase.call?.params, ["fixture"]);
    push("test", ["testData", index, "expect"], testCase.expect, ["output"]);
  });
  return sites;
}

/** What each key of a call may read: secrets only where they are applied, the reply only where it has arrived, the batch only in a chunked body. */
function callKeyRoots(key: string, base: string[], chunked: boolean): string[] {
  switch (key) {
    case "credential":
    case "headers":
      return [...base, "credentials", ...(chunked ? ["batch", "batchIndex"] : [])];
    case "error":
      return [...base, "response", "status"];
    case "paginate":
      return [...base, "response"];
    case "poll":
      return [...base, "response", "status"];
    case "presign":
      return [...base, "item", "itemIndex"];
    case "body":
    case "query":
      return chunked ? [...base, "batch", "batchIndex"] : base;
    default:
      return base;
  }
}

function walkStrings(value: unknown, path: YamlPath, visit: (text: string, path: YamlPath) => void): void {
  if (typeof value === "string") visit(value, path);
  else if (Array.isArray(value)) value.forEach((item, index) => walkStrings(item, [...path, index], visit));
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) walkStrings(item, [...path, key], visit);
  }
}
