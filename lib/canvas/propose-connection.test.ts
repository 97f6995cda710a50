import { describe, expect, it } from "vitest";
import type { NodeTypeInfo, NodeTypes, Workflow } from "../graph";
import { handleId } from "./handle-ids";
import { proposeConnection } from "./propose-connection";

const workflow: Workflow = {
  version: 1,
  name: "w",
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, config: { inputs: [{ name: "question", type: "string", description: "", required: true }] } },
    { id: "agent", type: "agent", position: { x: 0, y: 0 }, config: {} },
    { id: "agent2", type: "agent", position: { x: 0, y: 0 }, config: {} },
    { id: "catalog", type: "catalog", position: { x: 0, y: 0 }, config: {} },
  ],
  edges: [],
};

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
  catalog: { ...base, title: "Catalog", serviceConnectors: [{ name: "offer", description: "", serviceType: "mcp", isService: true, methods: ["find"] }] },
};

describe("proposeConnection", () => {
  const types: NodeTypes = (type) => testTypes[type];
  const sockets = () => ({ consumer: "tools", provider: "offer" });

  it("makes a service edge from a provider to an agent's socket", () => {
    const { consumer, provider } = sockets();
    const verdict = proposeConnection(workflow, types, { source: "catalog", sourceHandle: handleId("provider", provider), target: "agent", targetHandle: handleId("consumer", consumer) });
    expect(verdict).toEqual({ ok: true, edge: { kind: "service", source: "catalog", sourceHandle: provider, target: "agent", targetHandle: consumer } });
  });

  it("reads a drag that starts on the socket the right way round", () => {
    const { consumer, provider } = sockets();
    const verdict = proposeConnection(workflow, types, { source: "agent", sourceHandle: handleId("consumer", consumer), target: "catalog", targetHandle: handleId("provider", provider) });
    expect(verdict.ok && verdict.edge).toEqual({ kind: "service", source: "catalog", sourceHandle: provider, target: "agent", targetHandle: consumer });
  });

  it("refuses a service edge between two consumers, saying why", () => {
    const { consumer } = sockets();
    const verdict = proposeConnection(workflow, types, { source: "agent", sourceHandle: handleId("consumer", consumer), target: "agent2", targetHandle: handleId("consumer", consumer) });
    expect(verdict).toEqual({ ok: false, reason: "A service edge joins a tool provider to an agent; both ends here consume tools." });
  });

  it("refuses a signal into a tool socket, saying why", () => {
    const { consumer } = sockets();
    const verdict = proposeConnection(workflow, types, { source: "start", sourceHandle: handleId("output", "started"), target: "agent", targetHandle: handleId("consumer", consumer) });
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/do not go together/);
  });

  it("refuses handles that are not the canvas's", () => {
    const verdict = proposeConnection(workflow, types, { source: "start", sourceHandle: null, target: "agent", targetHandle: "prompt" });
    expect(verdict.ok).toBe(false);
  });
});
