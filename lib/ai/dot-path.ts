/** Splits `messages.0.content` into its segments. */
function segments(path: string): string[] {
  return path.split(".").filter((segment) => segment !== "");
}

const unsafe = new Set(["__proto__", "prototype", "constructor"]);

/** Reads a dot path; numeric segments index arrays. */
export function getPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of segments(path)) {
    if (current === null || typeof current !== "object" || unsafe.has(segment)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * Sets a dot path in a plain object, creating maps on the way (or lists,
 * where the next segment is a number). Mutates `target`.
 */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = segments(path);
  if (parts.length === 0 || parts.some((part) => unsafe.has(part))) throw new Error(`cannot set '${path}'`);
  let current: Record<string, unknown> = target;
  parts.slice(0, -1).forEach((part, index) => {
    const next = current[part];
    if (next === null || typeof next !== "object") current[part] = /^\d+$/.test(parts[index + 1]) ? [] : {};
    current = current[part] as Record<string, unknown>;
  });
  current[parts[parts.length - 1]] = value;
}

/** Appends to the list at a dot path, creating it when missing. */
export function appendPath(target: Record<string, unknown>, path: string, items: readonly unknown[]): void {
  const existing = getPath(target, path);
  setPath(target, path, [...(Array.isArray(existing) ? existing : []), ...items]);
}
