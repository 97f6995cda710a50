import { describe, expect, it } from "vitest";
import { pasteOffset } from "./paste-placement";

const box = (x: number, y: number, width = 240, height = 110) => ({ x, y, width, height });

describe("pasteOffset", () => {
  it("puts a copy beside its original, not on it", () => {
    expect(pasteOffset([box(0, 0)], [box(0, 0)])).toEqual({ x: 280, y: 0 });
  });

  it("goes below when the right is taken, and further along when both are", () => {
    expect(pasteOffset([box(0, 0)], [box(0, 0), box(280, 0)])).toEqual({ x: 0, y: 150 });
    const crowded = [box(0, 0), box(280, 0), box(0, 150), box(280, 150)];
    const offset = pasteOffset([box(0, 0)], crowded);
    const placed = box(offset.x, offset.y);
    for (const other of crowded) expect(placed.x >= other.x + other.width || other.x >= placed.x + placed.width || placed.y >= other.y + other.height || other.y >= placed.y + placed.height).toBe(true);
  });

  it("moves a group as a whole", () => {
    expect(pasteOffset([box(0, 0), box(300, 0)], [box(0, 0), box(300, 0)])).toEqual({ x: 580, y: 0 });
  });
});
