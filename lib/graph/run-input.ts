import type { GraphProblem } from "./graph-problem";
import type { EntryField } from "./input-fields";
import { startFields } from "./start-trigger";
import type { Workflow } from "./workflow";

export type CheckedInput = { ok: true; values: Record<string, unknown> } | { ok: false; problems: GraphProblem[] };

/**
 * Checks values against input fields: every required field is given, every
 * given field is declared, and each value has its field's type (`object`
 * means a plain object, not an array or null). Used for a run's input
 * (against the Start's fields) and a task call's arguments (against the
 * Task Start's). Problems name the field as `input.<name>`.
 */
export function checkFieldValues(fields: readonly EntryField[], values: unknown, nodeId?: string): CheckedInput {
  const place = nodeId ? { nodeId } : {};
  if (!isPlainObject(values)) {
    return { ok: false, problems: [{ code: "input-not-object", message: "The input must be a JSON object, one property per input field.", ...place, field: "input", severity: "error" }] };
  }
  const declared = new Map(fields.map((field) => [field.name, field]));
  const problems: GraphProblem[] = [];
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined) {
      if (field.required) problems.push({ code: "input-missing", message: `The input needs "${field.name}" (${field.type})${field.description ? `: ${field.description}` : ""}.`, ...place, field: `input.${field.name}`, severity: "error" });
    } else if (!hasType(value, field.type)) {
      problems.push({ code: "input-type", message: `The input "${field.name}" must be ${field.type === "array" || field.type === "object" ? "an" : "a"} ${field.type}, not ${describe(value)}.`, ...place, field: `input.${field.name}`, severity: "error" });
    }
  }
  for (const name of Object.keys(values)) {
    if (declared.has(name)) continue;
    const known = fields.map((field) => `"${field.name}"`).join(", ") || "none";
    problems.push({ code: "input-unknown", message: `The input has "${name}", which is no input field (the fields are ${known}); remove it or add the field to the Start.`, ...place, field: `input.${name}`, severity: "error" });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}

/**
 * A run's input against the workflow's Start, by its trigger (see
 * startFields): the input fields, or a webhook's body, headers, query and
 * deliveryId, or a schedule's tick. No Start: the input must be empty.
 */
export function validateRunInput(workflow: Pick<Workflow, "nodes">, input: unknown = {}): CheckedInput {
  const start = workflow.nodes.find((node) => node.type === "start");
  return checkFieldValues(start ? startFields(start.config) : [], input, start?.id);
}

function hasType(value: unknown, type: EntryField["type"]): boolean {
  if (type === "any") return true;
  if (type === "array") return Array.isArray(value);
  if (type === "object") return isPlainObject(value);
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  return typeof value === type;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
