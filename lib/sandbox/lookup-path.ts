/**
 * Segments that would reach a prototype instead of data. They resolve to
 * undefined even where a JSON value has them as own keys.
 */
const prototypeSegments = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The value at a dot path, reading own properties only: a numeric segment
 * indexes an array, `length` of an array or a string is its length, and
 * anything missing gives undefined rather than an error.
 *
 * @example lookupPath({ calls: { search: { items: [{ id: 7 }] } } }, ["calls", "search", "items", "0", "id"]) // 7
 */
export function lookupPath(scope: unknown, segments: readonly string[]): unknown {
  let current: unknown = scope;
  for (const segment of segments) {
    if (current === null || current === undefined) return undefined;
    if (prototypeSegments.has(segment)) return undefined;
    if (!Object.hasOwn(Object(current), segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
