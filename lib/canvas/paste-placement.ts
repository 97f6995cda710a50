/** A node's box on the canvas: its top-left corner and size. */
export interface PlacedBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * How far to move pasted nodes so that none of them lands on a node already
 * there (its original included): first beside the group, then below it,
 * then further along, as design tools place a duplicate next to its source.
 *
 * @example pasteOffset([{ x: 0, y: 0, width: 240, height: 110 }], [{ x: 0, y: 0, width: 240, height: 110 }]) // { x: 280, y: 0 }
 */
export function pasteOffset(pasted: readonly PlacedBox[], existing: readonly PlacedBox[], gap = 40): { x: number; y: number } {
  if (pasted.length === 0) return { x: gap, y: gap };
  const left = Math.min(...pasted.map((box) => box.x));
  const top = Math.min(...pasted.map((box) => box.y));
  const width = Math.max(...pasted.map((box) => box.x + box.width)) - left;
  const height = Math.max(...pasted.map((box) => box.y + box.height)) - top;
  const free = (offset: { x: number; y: number }) =>
    pasted.every((box) => existing.every((other) => !overlaps({ ...box, x: box.x + offset.x, y: box.y + offset.y }, other, gap / 2)));
  for (let step = 1; step <= 20; step++) {
    const candidates = [
      { x: step * (width + gap), y: 0 },
      { x: 0, y: step * (height + gap) },
      { x: step * (width + gap), y: step * (height + gap) },
    ];
    const found = candidates.find(free);
    if (found) return found;
  }
  return { x: gap, y: 21 * (height + gap) };
}

function overlaps(a: PlacedBox, b: PlacedBox, margin: number): boolean {
  return a.x < b.x + b.width + margin && b.x < a.x + a.width + margin && a.y < b.y + b.height + margin && b.y < a.y + a.height + margin;
}
