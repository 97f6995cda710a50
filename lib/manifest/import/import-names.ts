import { readFile } from "node:fs/promises";
import path from "node:path";
import { isScalar, LineCounter, parseDocument } from "yaml";

/**
 * A package or node name becomes a folder name under the import's target,
 * so it must be one plain path segment: letters, digits, `.`, `_` and `-`,
 * starting with a letter or digit, no `..`, no separators. Returns why not.
 *
 * @example segmentProblem("../../../x/victim") // "… is not one folder name …"
 */
export function segmentProblem(name: string): string | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name) || name.includes("..")) {
    return `'${name.slice(0, 100)}' is not one folder name (letters, digits, '.', '_' and '-', starting with a letter or digit, at most 100, no '..' or separators)`;
  }
  return null;
}

/** `file:line` of a top-level key of a YAML file (its value's line), or `file:1` when it cannot be placed. */
export async function placeOfKey(file: string, key: string): Promise<string> {
  try {
    const lines = new LineCounter();
    const document = parseDocument(await readFile(file, "utf8"), { lineCounter: lines });
    const node = document.get(key, true);
    const start = isScalar(node) || (node && typeof node === "object" && "range" in node) ? (node as { range?: [number, number, number] }).range?.[0] : undefined;
    return `${file}:${start === undefined ? 1 : lines.linePos(start).line}`;
  } catch {
    return `${file}:1`;
  }
}

/**
 * The absolute path of `parts` under `target`, refused unless it stays
 * inside it (resolved, so `..` and absolute parts cannot leave).
 */
export function insideTarget(target: string, ...parts: string[]): string {
  const root = path.resolve(target);
  const resolved = path.resolve(root, ...parts);
  const relative = path.relative(root, resolved);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) {
    throw new ImportTargetError(`refused to write ${resolved}: it is not inside the import's target ${root}`);
  }
  return resolved;
}

/** A write that would leave the target: a bug or a hostile name the checks above missed; nothing is written. */
export class ImportTargetError extends Error {
  override name = "ImportTargetError";
}
