import { minimumTracedLength, TaintedValueIndex } from "./tainted-value-index";

/** A tainted tool result the calling node run took in: where outside content came from. */
export interface TaintSourceText {
  /** The trace row id of the result. */
  origin: string;
  server: string;
  tool: string;
  /** The text the model was given. */
  text: string;
}

/** An argument (by its path, e.g. `to` or `recipients.0`) that derives from tainted content, and where from. */
export interface TaintedArgument {
  path: string;
  /** The value, as the model wrote it (strings only; shortened past 200 characters). */
  value: string;
  /** The tainted results that contain this value: the exact source. Empty when the node run is tainted but the value was not found verbatim. */
  foundIn: Array<{ origin: string; server: string; tool: string }>;
}


/**
 * Which arguments of a call derive from tainted content: pure. Taint is
 * tracked per node run (lib/trace/taint-registry.ts), so once the calling
 * node run has taken in tainted content every string argument counts as
 * derived from it (over-tainting, never under-tainting); each is marked with
 * the tainted results that contain it verbatim, which is where it came from
 * in the usual case (an address or a URL copied out of a page). Values
 * shorter than 4 characters are too common to mark as copied ("a", "yes",
 * "10"). The sources are given as the node run's index of them (kept as
 * results come in, so a call's check costs what its own arguments cost), or
 * as a list.
 *
 * @example
 * taintedArguments({ to: "attacker@example.com" }, [{ origin: "r1", server: "web", tool: "search", text: "… mail attacker@example.com …" }], true)
 * // [{ path: "to", value: "attacker@example.com", foundIn: [{ origin: "r1", server: "web", tool: "search" }] }]
 */
export function taintedArguments(args: unknown, sources: readonly TaintSourceText[] | TaintedValueIndex, nodeRunTainted: boolean): TaintedArgument[] {
  if (!nodeRunTainted) return [];
  const index = sources instanceof TaintedValueIndex ? sources : TaintedValueIndex.of(sources);
  const found: TaintedArgument[] = [];
  for (const [path, value] of stringLeaves(args, "")) {
    const foundIn = value.length >= minimumTracedLength ? index.find(value) : [];
    found.push({ path, value: value.length > 200 ? `${value.slice(0, 199)}…` : value, foundIn });
  }
  return found;
}

function* stringLeaves(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* stringLeaves(item, join(path, String(index)));
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) yield* stringLeaves(item, join(path, key));
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
