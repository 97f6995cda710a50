import { describe, expect, it } from "vitest";
import type { Workflow } from "../graph";
import { canvasCatalogue, canvasNodeTypes } from "./canvas-catalogue";
import { analyseWorkflow, runBlockers, runLosses } from "./workflow-analysis";
import { edge, fixtureNodeTypes, node, questionStart, workflowOf } from "../../testing/graph/node-types.fixture";

const broken = {
  name: "broken-node",
  dir: "nodes/broken-node",
  manifest: null,
  problems: [{ file: "nodes/broken-node/interface.yaml", line: 3, column: 1, severity: "error" as const, rule: "schema", message: "title is missing", node: "broken-node" }],
};

describe("analyseWorkflow", () => {
  const catalogue = canvasCatalogue({ nodes: [broken] });
  const entries = new Map(catalogue.types.map((type) => [type.name, type]));
  const nodeTypes = canvasNodeTypes(catalogue);

  it("lists built-ins first and keeps a broken node type, unusable, with its lint", () => {
    expect(catalogue.types.slice(0, 4).map((type) => type.name)).toEqual(["start", "end", "task-start", "task-end"]);
    const entry = entries.get("broken-node")!;
    expect(entry.usable).toBe(false);
    expect(entry.lint[0]).toEqual({ severity: "error", rule: "schema", message: "title is missing", place: "nodes/broken-node/interface.yaml:3:1" });
    expect(nodeTypes("broken-node")).toBeUndefined();
  });

  it("puts graph problems and the type's lint problems on the nodes they concern", () => {
    const workflow: Workflow = {
      version: 1,
      name: "w",
      nodes: [
        { id: "task", type: "task-start", position: { x: 0, y: 0 }, config: {} },
        { id: "oops", type: "broken-node", position: { x: 0, y: 0 }, config: {} },
      ],
      edges: [],
    };
    const analysis = analyseWorkflow(workflow, nodeTypes, entries);
    expect(analysis.byNode.task.problems.map((problem) => problem.code)).toContain("task-start-untitled");
    const oops = analysis.byNode.oops.problems;
    expect(oops.map((problem) => [problem.source, problem.code])).toEqual([
      ["graph", "unknown-node-type"],
      ["lint", "schema"],
    ]);
    expect(analysis.errors).toBe(analysis.byNode.task.errors + analysis.byNode.oops.errors);
  });

  it("finds nothing wrong with an empty workflow", () => {
    const analysis = analyseWorkflow({ version: 1, name: "w", nodes: [], edges: [] }, nodeTypes, entries);
    expect(analysis).toMatchObject({ errors: 0, warnings: 0, byNode: {}, byEdge: {}, general: [], toolCosts: {} });
  });
});

describe("what the Run dialog lists", () => {
  const agentOnly = workflowOf([questionStart, node("agent", "agent")], [edge("signal", "start.question", "agent.prompt")]);

  it("an agent with no End: a warning on the node before the run, and the run's loss, which does not block it", () => {
    const analysis = analyseWorkflow(agentOnly, fixtureNodeTypes, new Map());
    expect(analysis.byNode.agent.problems).toEqual([expect.objectContaining({ severity: "warning", code: "outputs-reach-nothing", message: expect.stringContaining('nothing takes its output "answer" anywhere') })]);
    expect(runLosses(analysis)).toEqual([{ nodeId: "agent", message: expect.stringContaining("Add an End and connect one to it") }]);
    expect(runBlockers(analysis)).toEqual([]);
  });

  it("wired to an End, nothing is lost", () => {
    const wired = workflowOf([...agentOnly.nodes, node("end", "end")], [...agentOnly.edges, edge("signal", "agent.answer", "end.result")]);
    expect(runLosses(analyseWorkflow(wired, fixtureNodeTypes, new Map()))).toEqual([]);
  });
});
