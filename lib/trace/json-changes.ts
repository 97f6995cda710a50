import diff from "microdiff";

/**
 * One difference between two JSON values, at a path into them: a value
 * that changed, appeared (only in `after`) or went away (only in `before`).
 * `path` is readable (`items[2].name`, "" for the value itself).
 */
export type JsonChange =
  | { kind: "changed"; path: string; before: unknown; after: unknown }
  | { kind: "added"; path: string; after: unknown }
  | { kind: "removed"; path: string; before: unknown };

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
        return { kind: "changed", path, before: difference.oldValue, after: difference.value };
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
