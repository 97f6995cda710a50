import diff from "microdiff";
import { diffWordsWithSpace } from "diff";

/**
 * One difference between two JSON values, at a path into them: a value
 * that changed, appeared (only in `after`) or went away (only in `before`).
 * `path` is readable (`items[2].name`, "" for the value itself).
 */
export type JsonChange =
  | { kind: "changed"; path: string; before: unknown; after: unknown; text?: TextPart[] }
  | { kind: "added"; path: string; after: unknown }
  | { kind: "removed"; path: string; before: unknown };

/**
 * Whether two JSON values are equal, as jsonChanges would find them: the
 * same primitives, arrays of equal items, objects with equal values under
 * the same keys in any order. Allocates nothing, so a replay that compares
 * every call with its recording pays for a diff only where one differs.
 * Anything else (a key whose value is undefined, a Date) reads as not
 * equal here: jsonChanges then decides.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return a !== undefined || b === undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    count++;
    const value = left[key];
    if (value === undefined || !Object.hasOwn(right, key) || !jsonEqual(value, right[key])) return false;
  }
  for (const _key in right) count--;
  return count === 0;
}

/**
 * What differs between two JSON values, deeply (microdiff does the walk;
 * arrays are compared index by index). Values of any type, `undefined`
 * included (it reads as absent). Empty when they are equal.
 *
 * @example
 * jsonChanges({ value: 26.2, to: "km" }, { value: 5, to: "km" })
 * // [{ kind: "changed", path: "value", before: 26.2, after: 5 }]
 */
export function jsonChanges(before: unknown, after: unknown): JsonChange[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined) return [{ kind: "added", path: "", after }];
  if (after === undefined) return [{ kind: "removed", path: "", before }];
  // Wrapped, so primitives and type changes at the top diff like any field.
  return diff({ value: before }, { value: after }).map((difference) => {
    const path = formatPath(difference.path.slice(1));
    switch (difference.type) {
      case "CHANGE":
        return isText(difference.oldValue) && isText(difference.value)
          ? { kind: "changed", path, before: difference.oldValue, after: difference.value, text: textChanges(difference.oldValue, difference.value) }
          : { kind: "changed", path, before: difference.oldValue, after: difference.value };
      case "CREATE":
        return { kind: "added", path, after: difference.value };
      case "REMOVE":
        return { kind: "removed", path, before: difference.oldValue };
    }
  });
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/** ["items", 2, "name"] → items[2].name; odd keys quoted: ["a b"] → ["a b"]. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else if (identifier.test(part)) text += text ? `.${part}` : part;
    else text += `[${JSON.stringify(part)}]`;
  }
  return text;
}

/** A string of more than one word: a changed one is diffed inside (a one-word value reads as before → after). */
function isText(value: unknown): value is string {
  return typeof value === "string" && /\s/.test(value.trim());
}

/** A piece of a changed text: kept, or only in the text before, or only in the text after. */
export interface TextPart {
  kind: "same" | "removed" | "added";
  text: string;
}

/** Kept text longer than this is cut to its ends (`context` characters each) around "…". */
const keptLimit = 120;
const context = 40;

/**
 * What changed inside a text, word by word (jsdiff's word diff, spaces
 * kept): a changed answer shows the words that changed, not two whole
 * strings. Long kept stretches are shortened to their ends.
 *
 * @example
 * textChanges("It is 42 km.", "It is 1000 km.")
 * // [{ kind: "same", text: "It is " }, { kind: "removed", text: "42" }, { kind: "added", text: "1000" }, { kind: "same", text: " km." }]
 */
export function textChanges(before: string, after: string): TextPart[] {
  const parts = diffWordsWithSpace(before, after).map((part): TextPart => ({ kind: part.added ? "added" : part.removed ? "removed" : "same", text: part.value }));
  return parts.map((part, index) => {
    if (part.kind !== "same" || part.text.length <= keptLimit) return part;
    const head = index === 0 ? "" : part.text.slice(0, context);
    const tail = index === parts.length - 1 ? "" : part.text.slice(-context);
    return { kind: "same", text: `${head}…${tail}` };
  });
}
