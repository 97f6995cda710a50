import { describe, expect, it } from "vitest";
import type { WorkflowNode } from "../graph";
import type { NodeManifest } from "../manifest";
import { endpointToolNames, workflowOfferings } from "./workflow-endpoint-tools";

/** Just enough of a service node's manifest for the offering: its connectors and methods. */
const converter = {
  interface: { name: "unit-converter", title: "Unit Converter", credentials: [], serviceConnectors: [{ name: "mcpService", isService: true, methods: ["convertUnits", "listUnits"] }] },
  service: { convertUnits: { description: "Convert." }, listUnits: { description: "List." } },
} as unknown as NodeManifest;
const agent = { interface: { name: "offline-agent", title: "Agent", credentials: [], serviceConnectors: [{ name: "mcpService", isService: false, methods: [] }] } } as unknown as NodeManifest;
const manifests: Record<string, NodeManifest> = { "unit-converter": converter, "offline-agent": agent };

const node = (id: string, type: string, config: Record<string, unknown> = {}): WorkflowNode => ({ id, type, position: { x: 0, y: 0 }, config });
const task = (id: string, title: string) => node(id, "task-start", { title, description: `Does ${title}.`, inputs: [] });

describe("workflowOfferings", () => {
  it("offers every service node's methods and every titled Task Start, never an agent's consuming connector", () => {
    const offerings = workflowOfferings({ nodes: [node("agent", "offline-agent"), node("converter", "unit-converter"), task("ask", "Ask a question"), node("untitled", "task-start", { title: "No description" })] }, (type) => manifests[type]);
    expect(offerings.map((offer) => [offer.kind, offer.name])).toEqual([
      ["service", "convertUnits"],
      ["service", "listUnits"],
      ["task", "ask_a_question"],
    ]);
  });

  it("prefixes a method two service nodes offer with each node's id", () => {
    const offerings = workflowOfferings({ nodes: [node("metric", "unit-converter"), node("imperial", "unit-converter")] }, (type) => manifests[type]);
    expect(offerings.map((offer) => offer.name)).toEqual(["metric__convertUnits", "metric__listUnits", "imperial__convertUnits", "imperial__listUnits"]);
  });

  it("prefixes two Task Starts with the same title, and a task named like a method", () => {
    const offerings = workflowOfferings({ nodes: [task("one", "Summarize"), task("two", "Summarize"), node("converter", "unit-converter"), task("clash", "listUnits")] }, (type) => manifests[type]);
    expect(offerings.map((offer) => offer.name)).toEqual(["convertUnits", "listUnits", "one__summarize", "two__summarize", "listunits"]);
  });
});

describe("endpointToolNames", () => {
  it("keeps a name one owner offers and prefixes a shared one for every owner", () => {
    expect(endpointToolNames([{ owner: "a", name: "convert" }, { owner: "b", name: "convert" }, { owner: "b", name: "list" }])).toEqual(["a__convert", "b__convert", "list"]);
  });

  it("keeps names to what MCP allows, and unique even when a prefixed name was taken already", () => {
    expect(endpointToolNames([{ owner: "node one", name: "x" }, { owner: "node-one", name: "x" }])).toEqual(["node-one__x", "node-one__x_2"]);
    expect(endpointToolNames([{ owner: "n", name: "a".repeat(200) }])[0]).toHaveLength(128);
  });
});
