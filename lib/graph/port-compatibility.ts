import type { PortType } from "./node-type-info";

/**
 * Whether a value put out on a port of one type may arrive on a port of
 * another. The rules, from strict to loose:
 *
 * - the same type always fits;
 * - anything fits a `signal` input: the value is dropped, only the trigger counts;
 * - a `signal` output fits no value input, `any` included: it carries no value;
 * - an `any` input (End, Task End) takes every value; an `any` output fits
 *   every input, and the value is checked when it arrives;
 * - `number` and `boolean` fit a `string` input: they arrive as text ("42", "true");
 * - `object` and `array` fit a `string` input with a warning: they arrive as JSON text;
 * - everything else does not fit: no text is parsed into a number, boolean,
 *   object or array; a number is not a boolean; an array is not an object
 *   (even though JavaScript says so) and an object is not an array.
 */
export type SignalFit = { fits: true; warning?: string } | { fits: false; reason: string };

export function signalFit(source: PortType, target: PortType): SignalFit {
  if (source === target || target === "signal") return { fits: true };
  if (source === "signal") return { fits: false, reason: `the output only says "now" and carries no value, but the input needs ${valueWords(target)}` };
  if (source === "any" || target === "any") return { fits: true };
  if (target === "string" && (source === "number" || source === "boolean")) return { fits: true };
  if (target === "string" && (source === "object" || source === "array")) {
    return { fits: true, warning: `the ${source === "object" ? "object" : "list"} arrives on the text input written out as JSON text` };
  }
  return { fits: false, reason: `the output gives ${valueWords(source)}, but the input needs ${valueWords(target)}` };
}

const words: Record<PortType, string> = {
  string: "text",
  number: "a number",
  boolean: "true or false",
  object: "an object (named values)",
  array: "a list",
  any: "any value",
  signal: "no value (only a trigger)",
};

/**
 * A port's type as a person says it: "text", "a number", "a list".
 *
 * @example valueWords("boolean") // "true or false"
 */
export function valueWords(type: PortType): string {
  return words[type] ?? type;
}
