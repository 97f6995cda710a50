/** A point in flow coordinates. */
export interface Point {
  x: number;
  y: number;
}

/** An axis-aligned box in flow coordinates (a node, or a label). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where along each segment a label may sit, best first: the middle, then nearer either end. */
const along = [0.5, 0.3, 0.7, 0.15, 0.85];

/**
 * Where an edge's label goes: on the edge's drawn path (its corners, end to
 * end), at the first place where a box of `label`'s size centred there
 * covers no node. Candidates are the middles of the segments, longest
 * first, horizontal segments before vertical ones (a label is wider than
 * high, so it lies along a horizontal run), then points nearer the ends.
 * When every place covers a node, the middle of the longest segment.
 */
export function edgeLabelPoint(path: readonly Point[], label: { width: number; height: number }, nodes: readonly Box[]): Point {
  const segments = path
    .slice(1)
    .map((end, index) => ({ start: path[index], end, length: Math.hypot(end.x - path[index].x, end.y - path[index].y), horizontal: Math.abs(end.y - path[index].y) < 1 }))
    .filter((segment) => segment.length > 0)
    .sort((a, b) => Number(b.horizontal) - Number(a.horizontal) || b.length - a.length);
  if (segments.length === 0) return path[0] ?? { x: 0, y: 0 };
  for (const fraction of along) {
    for (const segment of segments) {
      const point = { x: segment.start.x + (segment.end.x - segment.start.x) * fraction, y: segment.start.y + (segment.end.y - segment.start.y) * fraction };
      const box = { x: point.x - label.width / 2, y: point.y - label.height / 2, width: label.width, height: label.height };
      if (!nodes.some((node) => overlaps(box, node))) return point;
    }
  }
  const longest = segments.reduce((best, segment) => (segment.length > best.length ? segment : best));
  return { x: (longest.start.x + longest.end.x) / 2, y: (longest.start.y + longest.end.y) / 2 };
}

/** Whether two boxes share any area (touching edges do not count). */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The corners of an orthogonal SVG path: its numbers read as points (M, L, and a rounded corner's Q, whose control point is the corner). */
export function pathCorners(svgPath: string): Point[] {
  const numbers = svgPath.match(/-?\d*\.?\d+(?:e[-+]?\d+)?/gi)?.map(Number) ?? [];
  const points: Point[] = [];
  for (let index = 0; index + 1 < numbers.length; index += 2) points.push({ x: numbers[index], y: numbers[index + 1] });
  return points;
}
