import type { z } from "zod";

/**
 * A schema's complaint about a workflow document in words a person reads:
 * which field, what it must be, what it is. The validator's own text
 * ("Invalid input: expected 1") names neither.
 *
 * @example
 * plainIssue({ code: "invalid_value", path: ["version"], values: [1], message: "…" }, { version: 2 })
 * // '"version" must be 1 (the workflow format this app reads), but it is 2.'
 */
export function plainIssue(issue: z.core.$ZodIssue, document: unknown): string {
  const path = issue.path.map(String);
  const field = path.length > 0 ? `"${path.join(".")}"` : "The document";
  const value = valueAt(document, issue.path);
  const why = fieldPurpose[path.at(-1) ?? ""] ?? "";
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `${field} is missing: it must be ${typeWords(issue.expected)}${why}.`;
      return `${field} must be ${typeWords(issue.expected)}${why}, but it is ${describe(value)}.`;
    case "invalid_value":
      return `${field} must be ${issue.values.map((allowed) => JSON.stringify(allowed)).join(" or ")}${why}, but it is ${value === undefined ? "missing" : describe(value)}.`;
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) <= 1) return `${field} must not be empty${why}.`;
      return `${field} is too small${why}: ${issue.message.replace(/^Too small: /, "")}.`;
    case "unrecognized_keys":
      return `${field} has ${issue.keys.length === 1 ? "a setting" : "settings"} a workflow does not have: ${issue.keys.map((key) => `"${key}"`).join(", ")}.`;
    default:
      return `${field}: ${issue.message}`;
  }
}

/**
 * Whether a JSON value looks like no workflow at all (not an object, or an
 * object with none of a workflow's fields): then one sentence says so,
 * instead of a list of every field it lacks.
 */
export function notAWorkflow(document: unknown): string | null {
  const shape = "A workflow file is a JSON object with \"version\": 1, a \"name\", and lists of \"nodes\" and \"edges\" (export a workflow to see one)";
  if (document === null || typeof document !== "object" || Array.isArray(document)) return `This file is not a Switchboard workflow: it holds ${describe(document)}. ${shape}.`;
  const keys = Object.keys(document);
  if (["version", "nodes", "edges"].some((key) => keys.includes(key))) return null;
  const listed = keys.length === 0 ? "no fields at all" : `the fields ${keys.slice(0, 5).map((key) => `"${key}"`).join(", ")}${keys.length > 5 ? ` and ${keys.length - 5} more` : ""}`;
  return `This file is not a Switchboard workflow: it is a JSON object with ${listed}, and none of a workflow's. ${shape}.`;
}

const fieldPurpose: Record<string, string> = {
  version: " (the workflow format this app reads)",
  kind: ' ("signal" joins ports, "service" gives an agent tools, "task" offers a task)',
};

function typeWords(expected: string): string {
  return ({ string: "text", number: "a number", boolean: "true or false", object: "an object", array: "a list", int: "a whole number" } as Record<string, string>)[expected] ?? expected;
}

/** A value as a person sees it: `"left"` (text), `2`, `a list of 3`, `an object`. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return String(value);
}

function valueAt(document: unknown, path: readonly PropertyKey[]): unknown {
  let current = document;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
