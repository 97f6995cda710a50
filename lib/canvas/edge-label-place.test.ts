import { describe, expect, it } from "vitest";
import { edgeLabelPoint, overlaps, pathCorners } from "./edge-label-place";

const label = { width: 100, height: 20 };

describe("edgeLabelPoint", () => {
  it("puts the label at the middle of the longest horizontal run when nothing is in the way", () => {
    const path = [
      { x: 0, y: 0 },
      { x: 0, y: 200 },
      { x: 400, y: 200 },
      { x: 400, y: 260 },
    ];
    expect(edgeLabelPoint(path, label, [])).toEqual({ x: 200, y: 200 });
  });

  it("moves along the path when the middle would cover a node", () => {
    const path = [
      { x: 0, y: 0 },
      { x: 600, y: 0 },
    ];
    const node = { x: 250, y: -30, width: 100, height: 60 };
    const at = edgeLabelPoint(path, label, [node]);
    expect(at.y).toBe(0);
    expect(overlaps({ x: at.x - 50, y: at.y - 10, ...label }, node)).toBe(false);
  });

  it("falls back to the longest segment's middle when every place covers a node", () => {
    const path = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
    ];
    expect(edgeLabelPoint(path, label, [{ x: -500, y: -500, width: 1000, height: 1000 }])).toEqual({ x: 50, y: 0 });
  });
});

describe("pathCorners", () => {
  it("reads an orthogonal path's corners, rounded corners by their control point", () => {
    expect(pathCorners("M0 0L 10,0Q 20,0 20,10L20 -3.5e1")).toEqual([
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 20, y: 0 },
      { x: 20, y: 10 },
      { x: 20, y: -35 },
    ]);
  });
});
