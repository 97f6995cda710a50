import type { TaintedArgument } from "@/lib/policy";

/** One value of a call's arguments, by its path (`to`, `recipients.0`), with the taint found on it. */
export interface ArgumentLeaf {
  path: string;
  value: unknown;
  tainted?: TaintedArgument;
}

/**
 * The arguments as a flat list of values by path, each string value marked
 * with its taint (from the waiting call's `tainted` list): pure, so the
 * Approvals page shows which parts of a call came from outside content.
 *
 * @example
 * argumentLeaves({ to: "a@b.c", n: 1 }, [{ path: "to", value: "a@b.c", foundIn: [] }])
 * // [{ path: "to", value: "a@b.c", tainted: {…} }, { path: "n", value: 1 }]
 */
export function argumentLeaves(args: unknown, tainted: readonly TaintedArgument[]): ArgumentLeaf[] {
  const byPath = new Map(tainted.map((argument) => [argument.path, argument]));
  const leaves: ArgumentLeaf[] = [];
  const walk = (value: unknown, path: string) => {
    const container = value !== null && typeof value === "object";
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : container ? Object.entries(value as object) : [];
    if (!container || entries.length === 0) {
      const mark = byPath.get(path);
      leaves.push({ path: path || "(the arguments)", value, ...(mark ? { tainted: mark } : {}) });
      return;
    }
    for (const [key, item] of entries) walk(item, path ? `${path}.${key}` : key);
  };
  walk(args, "");
  return leaves;
}
