import { describe, expect, it } from "vitest";
import type { NodeTypeInfo, NodeTypes, Workflow } from "../graph";
import { connectionChoices } from "./connection-choices";

const base = { description: "", kind: "PromiseNode" as const, inputs: [], outputs: [], serviceConnectors: [], hasToolExchange: false, conditionalOutputs: [] };
const testTypes: Record<string, NodeTypeInfo> = {
  agent: {
    ...base,
    title: "Agent",
    kind: "CallbackNode",
    inputs: [{ name: "prompt", type: "string", description: "", required: true }],
    outputs: [{ name: "answer", type: "string", description: "", required: false }],
    serviceConnectors: [{ name: "tools", description: "", serviceType: "mcp", isService: false, methods: [] }],
    hasToolExchange: true,
  },
  counter: { ...base, title: "Counter", inputs: [{ name: "count", type: "number", description: "", required: true }] },
  catalog: { ...base, title: "Catalog", serviceConnectors: [{ name: "offer", description: "", serviceType: "mcp", isService: true, methods: ["find"] }] },
};
const types: NodeTypes = (type) => testTypes[type];

function workflow(edges: Workflow["edges"] = []): Workflow {
  return {
    version: 1,
    name: "w",
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", description: "", required: true }] } },
      { id: "agent", type: "agent", position: { x: 0, y: 0 }, config: {} },
      { id: "counter", type: "counter", position: { x: 0, y: 0 }, config: {} },
      { id: "catalog", type: "catalog", position: { x: 0, y: 0 }, config: {} },
      { id: "end", type: "end", position: { x: 0, y: 0 }, config: {} },
    ],
    edges,
  };
}

describe("connectionChoices", () => {
  it("offers, handle by handle, every far end a drawn edge would be accepted at", () => {
    const byHandle = Object.fromEntries(connectionChoices(workflow(), types, "agent").map((entry) => [entry.handle, entry.choices.map((choice) => `${choice.nodeId}/${choice.handle}`)]));
    expect(byHandle["input:prompt"]).toContain("start/output:question");
    expect(byHandle["output:answer"]).toContain("end/input:result");
    // A string does not fit a number input: not offered.
    expect(byHandle["output:answer"]).not.toContain("counter/input:count");
    expect(byHandle["consumer:tools"]).toEqual(["catalog/provider:offer"]);
  });

  it("names each handle and far end in words", () => {
    const [prompt] = connectionChoices(workflow(), types, "agent");
    expect(prompt.label).toMatch(/^(input "prompt" \(string\)|output "answer" \(string\))$/);
    const tools = connectionChoices(workflow(), types, "agent").find((entry) => entry.handle === "consumer:tools");
    expect(tools?.label).toBe('tool socket "tools"');
    expect(tools?.choices[0].label).toBe('catalog: tool provider "offer"');
  });

  it("leaves out a pair already joined, and handles with nowhere to go", () => {
    const joined = workflow([{ id: "e1", kind: "service", source: "catalog", sourceHandle: "offer", target: "agent", targetHandle: "tools" }]);
    expect(connectionChoices(joined, types, "agent").find((entry) => entry.handle === "consumer:tools")).toBeUndefined();
    expect(connectionChoices(workflow(), types, "nowhere")).toEqual([]);
  });
});
