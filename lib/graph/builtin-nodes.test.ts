import { describe, expect, it } from "vitest";
import { builtinNodeType, builtinNodes, lookupNodeType } from "./builtin-nodes";
import { fixtureNodeTypes } from "../../testing/graph/node-types.fixture";
import { nodePorts } from "./node-type-info";

const start = builtinNodeType("start")!;
const taskStart = builtinNodeType("task-start")!;

describe("built-in nodes", () => {
  it("come in the catalogue's shape, in palette order", () => {
    expect(builtinNodes.map((node) => node.name)).toEqual(["start", "end", "task-start", "task-end", "mcp-server"]);
    for (const node of builtinNodes) {
      expect(node).toMatchObject({ title: expect.any(String), description: expect.any(String), kind: "PromiseNode" });
      expect(node.configSchema).toMatchObject({ type: "object" });
      expect(node.configSchema).not.toHaveProperty("$schema");
    }
  });

  it("the MCP server node offers its server's tools on one provider connector, and needs a server id", () => {
    const server = builtinNodeType("mcp-server")!;
    expect(server.serviceConnectors).toEqual([expect.objectContaining({ name: "tools", isService: true })]);
    expect(server.checkConfig!({})).toEqual([{ field: "serverId", message: "is required" }]);
    expect(server.checkConfig!({ serverId: "everything", toolNames: ["echo"] })).toEqual([]);
    expect(server.checkConfig!({ serverId: "everything", toolNames: [] })).toEqual([{ field: "toolNames", message: expect.stringContaining("at least one tool") }]);
  });

  it("Start puts out its fields, then started", () => {
    const ports = nodePorts({ config: { inputs: [{ name: "question", type: "string" }, { name: "count", type: "number", required: true }] } }, start);
    expect(ports.inputs).toEqual([]);
    expect(ports.outputs.map((port) => [port.name, port.type])).toEqual([["question", "string"], ["count", "number"], ["started", "signal"]]);
    expect(nodePorts({ config: {} }, start).outputs.map((port) => port.name)).toEqual(["started"]);
  });

  it("Task Start adds the task handle; End and Task End take any result", () => {
    expect(taskStart.taskHandle).toBe("task");
    expect(builtinNodeType("end")!.inputs).toEqual([expect.objectContaining({ name: "result", type: "any", required: true })]);
    expect(builtinNodeType("task-end")!.inputs).toEqual([expect.objectContaining({ name: "result", type: "any", required: true })]);
  });

  it("generates the inspector's schema from the config's zod schema", () => {
    expect(taskStart.configSchema.properties).toMatchObject({
      title: { type: "string", default: "" },
      description: { type: "string", "ui:widget": "textarea" },
      inputs: { type: "array", items: { type: "object", required: ["name"] } },
    });
  });

  it("checks its config in code and names the field", () => {
    expect(start.checkConfig!({ inputs: [{ name: "question" }] })).toEqual([]);
    expect(start.checkConfig!({ inputs: [{ name: "2nd", type: "date" }], extra: 1 })).toEqual([
      { field: "inputs.0.name", message: expect.stringContaining("letters") },
      { field: "inputs.0.type", message: expect.any(String) },
      { field: "extra", message: 'unknown setting "extra"; remove it' },
    ]);
    expect(start.checkConfig!({ inputs: [{ name: "a" }, { name: "a" }, { name: "started" }] }).map((issue) => issue.field)).toEqual(["inputs.1.name", "inputs.2.name"]);
  });

  it("are found before the caller's node types", () => {
    expect(lookupNodeType(() => undefined, "start")).toBe(start);
    expect(lookupNodeType(fixtureNodeTypes, "agent")?.title).toBe("Agent");
    expect(lookupNodeType(fixtureNodeTypes, "nope")).toBeUndefined();
  });
});
