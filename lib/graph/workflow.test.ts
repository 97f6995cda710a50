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
    expect(parsed.problems[0].message).toBe('"nodes.0.position.x" must be a number, but it is the text "left".');
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
    expect(parsed.problems.map((problem) => problem.message)).toEqual([
      '"version" must be 1 (the workflow format this app reads), but it is 2.',
      '"edges.0.kind" must be "signal" or "service" or "task" ("signal" joins ports, "service" gives an agent tools, "task" offers a task), but it is the text "wire".',
    ]);
  });

  it("says in one sentence that a JSON file with none of a workflow's fields is no workflow, naming what it has", () => {
    const parsed = parseWorkflow({ servers: [], theme: "dark" });
    expect(parsed).toEqual({ ok: false, problems: [{ code: "invalid-workflow", severity: "error", message: expect.stringContaining('it is a JSON object with the fields "servers", "theme", and none of a workflow\'s. A workflow file is a JSON object with "version": 1') }] });
    expect(parseWorkflow({ version: 1, nodes: "none" })).toMatchObject({ ok: false, problems: [{ field: "nodes", message: '"nodes" must be a list, but it is the text "none".' }] });
    expect(parseWorkflow({ version: 1, nodes: [{ type: "end", position: { x: 0, y: 0 } }] })).toMatchObject({ ok: false, problems: [{ field: "nodes.0.id", message: '"nodes.0.id" is missing: it must be text.' }] });
  });

  it("refuses a document that is not an object, and reserved or empty ids", () => {
    expect(parseWorkflow("nope")).toMatchObject({ ok: false, problems: [{ code: "invalid-workflow", message: expect.stringMatching(/^This file is not a Switchboard workflow: it holds the text "nope"\./) }] });
    const parsed = parseWorkflow({ ...minimal, nodes: [{ ...minimal.nodes[0], id: "__proto__" }, { ...minimal.nodes[0], id: "" }] });
    expect(parsed.ok === false && parsed.problems.map((problem) => problem.field)).toEqual(["nodes.0.id", "nodes.1.id"]);
  });
});
