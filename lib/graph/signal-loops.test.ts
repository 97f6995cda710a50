import { describe, expect, it } from "vitest";
import { canConnect } from "./can-connect";
import { edge, fixtureNodeTypes, node, workflowOf } from "../../testing/graph/node-types.fixture";
import { loopsWithoutExit, reaches, signalSuccessors } from "./signal-loops";

describe("reaches over unconditional signal edges", () => {
  const chain = workflowOf(
    [node("a", "echo"), node("b", "echo"), node("c", "echo")],
    [edge("signal", "a.text", "b.text", "ab"), edge("signal", "b.text", "c.text", "bc"), edge("service", "c.text", "a.text", "service")],
  );

  it("follows signal edges forward only, and a node reaches itself", () => {
    const successors = signalSuccessors(chain, () => false);
    expect(reaches(successors, "a", "c")).toBe(true);
    expect(reaches(successors, "c", "a")).toBe(false); // the service edge is no signal
    expect(reaches(successors, "b", "b")).toBe(true);
  });

  it("skips conditional edges", () => {
    expect(reaches(signalSuccessors(chain, (candidate) => candidate.id === "bc"), "a", "c")).toBe(false);
  });
});

describe("loopsWithoutExit at scale", () => {
  it("finds each of 2,000 separate two-node loops among 10,000 nodes (edges grouped by component in one pass)", () => {
    const count = 10_000;
    const nodes = Array.from({ length: count }, (_, index) => node(`n${index}`, "echo"));
    const edges = [
      ...Array.from({ length: 2_000 }, (_, index) => [edge("signal", `n${index * 2}.text`, `n${index * 2 + 1}.text`), edge("signal", `n${index * 2 + 1}.text`, `n${index * 2}.text`)]).flat(),
      ...Array.from({ length: 4_000 }, (_, index) => edge("signal", `n${4_000 + index}.text`, `n${4_001 + index}.text`)),
    ];
    const loops = loopsWithoutExit(workflowOf(nodes, edges), () => false);
    expect(loops).toHaveLength(2_000);
    expect(loops[1]).toEqual({ nodeIds: ["n2", "n3"], edgeIds: [edges[2].id, edges[3].id] });
  });
});

describe("canConnect on a large workflow", () => {
  it("still names the loop a new edge would close, and allows the edges that close none", () => {
    const count = 500;
    const nodes = Array.from({ length: count }, (_, index) => node(`n${index}`, "echo"));
    const edges = Array.from({ length: count - 1 }, (_, index) => edge("signal", `n${index}.text`, `n${index + 1}.text`));
    const workflow = workflowOf(nodes, edges);
    const back = canConnect(workflow, fixtureNodeTypes, { source: "n3", sourceHandle: "text", target: "n1", targetHandle: "text" });
    expect(back).toEqual({ ok: false, reason: expect.stringContaining('close a loop through "n1", "n2", "n3" that nothing can stop') });
    // Checking every node against one document, as the canvas does while an edge is drawn (what it prepares is kept per document).
    const verdicts = nodes.slice(0, 50).map((target) => canConnect(workflow, fixtureNodeTypes, { source: "n499", sourceHandle: "text", target: target.id, targetHandle: "text" }));
    expect(verdicts.filter((verdict) => verdict.ok)).toHaveLength(0); // every node reaches n499 along the chain, so each edge back closes a loop
    const forward = nodes.map((target) => canConnect(workflow, fixtureNodeTypes, { source: "n0", sourceHandle: "text", target: target.id, targetHandle: "text" }));
    expect(forward.filter((verdict) => verdict.ok)).toHaveLength(count - 2); // not n0 itself, not n1 (already joined)
  });
});
