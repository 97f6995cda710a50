import { describe, expect, it } from "vitest";
import { autoLayout, type LayoutNode } from "./auto-layout";

const node = (id: string, width = 240, height = 110): LayoutNode => ({ id, width, height });

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe("autoLayout", () => {
  const nodes = [node("start"), node("agent", 240, 140), node("end"), node("converter", 240, 90), node("weather", 240, 90), node("lonely", 120, 60)];
  const edges = [
    { kind: "signal" as const, source: "start", target: "agent" },
    { kind: "signal" as const, source: "agent", target: "end" },
    { kind: "service" as const, source: "converter", target: "agent" },
    { kind: "service" as const, source: "weather", target: "agent" },
  ];
  const positions = autoLayout(nodes, edges);

  it("places every node, signal flow left to right", () => {
    expect(Object.keys(positions).sort()).toEqual(nodes.map((n) => n.id).sort());
    expect(positions.start.x).toBeLessThan(positions.agent.x);
    expect(positions.agent.x).toBeLessThan(positions.end.x);
  });

  it("puts the tools an agent uses in a row right under it", () => {
    for (const tool of ["converter", "weather"]) expect(positions[tool].y).toBeGreaterThanOrEqual(positions.agent.y + 140);
    expect(positions.converter.y).toBe(positions.weather.y);
    expect(positions.converter.x).not.toBe(positions.weather.x);
  });

  it("overlaps nothing", () => {
    const boxes = nodes.map((n) => ({ ...positions[n.id], width: n.width, height: n.height }));
    for (const [index, box] of boxes.entries()) for (const other of boxes.slice(index + 1)) expect(overlaps(box, other)).toBe(false);
  });

  it("puts nodes no edge touches in a row under the rest, in document order, not in a column", () => {
    const fresh = autoLayout([node("start"), node("agent"), node("end")], []);
    expect(new Set(Object.values(fresh).map((position) => position.y)).size).toBe(1);
    expect(fresh.start.x).toBeLessThan(fresh.agent.x);
    expect(fresh.agent.x).toBeLessThan(fresh.end.x);
    const wiredBottom = Math.max(...["start", "agent", "end", "converter", "weather"].map((id) => positions[id].y + (nodes.find((n) => n.id === id)?.height ?? 0)));
    expect(positions.lonely.y).toBeGreaterThan(wiredBottom);
  });

  it("copes with loops, self-edges and an empty canvas", () => {
    expect(autoLayout([], [])).toEqual({});
    const looped = autoLayout([node("a"), node("b")], [
      { kind: "signal", source: "a", target: "b" },
      { kind: "signal", source: "b", target: "a" },
      { kind: "signal", source: "a", target: "a" },
    ]);
    expect(Object.keys(looped).sort()).toEqual(["a", "b"]);
  });
});
