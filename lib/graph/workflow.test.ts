import { describe, expect, it } from "vitest";
import { parseWorkflow } from "./workflow";

const minimal = {
  version: 1,
  name: "Demo",
  nodes: [{ id: "a", type: "offline-agent", position: { x: 1, y: 2 } }],
  edges: [],
};

describe("parseWorkflow", () => {
  it("accepts a document and fills in the defaults", () => {
    const parsed = parseWorkflow(minimal);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.workflow.nodes[0].config).toEqual({});
    expect(parseWorkflow({ version: 1 })).toEqual({ ok: true, workflow: { version: 1, name: "Untitled workflow", nodes: [], edges: [] } });
  });

  it("drops keys the canvas adds, so the parsed document is the clean shape", () => {
    const parsed = parseWorkflow({ ...minimal, nodes: [{ ...minimal.nodes[0], selected: true, measured: { width: 3 } }] });
    expect(parsed.ok && parsed.workflow.nodes[0]).toEqual({ id: "a", type: "offline-agent", position: { x: 1, y: 2 }, config: {} });
  });

  it("names the field's path and the node it belongs to", () => {
    const parsed = parseWorkflow({ ...minimal, nodes: [{ id: "a", type: "offline-agent", position: { x: "left", y: 2 } }] });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      expect.objectContaining({ code: "invalid-workflow", field: "nodes.0.position.x", nodeId: "a", severity: "error" }),
    ]);
    expect(parsed.problems[0].message).toMatch(/^nodes\.0\.position\.x: .*number/);
  });

  it("names the edge for a bad edge kind, and refuses another version", () => {
    const parsed = parseWorkflow({
      ...minimal,
      version: 2,
      edges: [{ id: "e1", kind: "wire", source: "a", sourceHandle: "x", target: "b", targetHandle: "y" }],
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((problem) => [problem.field, problem.edgeId])).toEqual([
      ["version", undefined],
      ["edges.0.kind", "e1"],
    ]);
  });

  it("refuses a document that is not an object, and reserved or empty ids", () => {
    expect(parseWorkflow("nope")).toMatchObject({ ok: false, problems: [{ code: "invalid-workflow", message: expect.stringMatching(/^The document/) }] });
    const parsed = parseWorkflow({ ...minimal, nodes: [{ ...minimal.nodes[0], id: "__proto__" }, { ...minimal.nodes[0], id: "" }] });
    expect(parsed.ok === false && parsed.problems.map((problem) => problem.field)).toEqual(["nodes.0.id", "nodes.1.id"]);
  });
});
