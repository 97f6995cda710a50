import { lookupPath } from "./lookup-path";
import type { Evaluator } from "./sandbox";
import { TemplateError } from "./template-error";
import { parseTemplate, type ParsedTemplate, type TemplatePart } from "./template-syntax";

/**
 * Renders a manifest value: every string in it, however deep, is a template
 * (see template-syntax.ts); objects and arrays are walked; anything else is
 * returned as is. The input is never modified.
 * - a literal stays as written;
 * - `"{{ config.maxTurns }}"` becomes the value at that path with its type
 *   (a number here), or undefined when it is missing;
 * - `"Bearer {{ credentials.api.token }}"` becomes text;
 * - `"return …"` is run by the sandbox over the scope.
 * Values taken from the scope are returned as they are, not copied.
 * Rejects with a TemplateError naming the string and where it sits.
 * Async because `return` expressions run in the sandbox's worker threads;
 * plain `{{ path }}` lookups and literals never leave this thread.
 *
 * @example await renderValue({ max: "{{ config.maxTurns }}" }, { config: { maxTurns: 5 } }, sandbox) // { max: 5 }
 */
export async function renderValue(value: unknown, scope: Record<string, unknown>, sandbox: Evaluator): Promise<unknown> {
  return renderAt(value, { scope, sandbox, location: [] });
}

/**
 * Renders one template to a string. `encode` is applied to each value a
 * `{{ path }}` inserts, never to the text around it, e.g. `encodeURIComponent`
 * for URL paths. A `return` expression writes the whole text itself, so its
 * result is not encoded.
 *
 * @example await renderText("/items/{{ params.id }}", { params: { id: "a/b" } }, sandbox, encodeURIComponent) // "/items/a%2Fb"
 */
export async function renderText(
  template: string,
  scope: Record<string, unknown>,
  sandbox: Evaluator,
  encode: (text: string) => string = (text) => text,
): Promise<string> {
  return withTemplateError(template, "", async () => {
    const parsed = parseTemplate(template);
    if (parsed.kind === "expression") return insertedText(await sandbox.evaluate(parsed.source, scope));
    if (parsed.kind === "literal") return parsed.text;
    const parts: TemplatePart[] = parsed.kind === "whole" ? [{ kind: "path", path: parsed.path }] : parsed.parts;
    return parts.map((part) => (part.kind === "text" ? part.text : encode(insertedText(lookupPath(scope, part.path.segments))))).join("");
  });
}

/**
 * How a value reads inside text: strings as they are, numbers and booleans
 * via String, objects and arrays as JSON, null and undefined as nothing.
 */
export function insertedText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

interface RenderState {
  scope: Record<string, unknown>;
  sandbox: Evaluator;
  /** Keys from the top of the rendered value down to here, for error messages. */
  location: (string | number)[];
}

async function renderAt(value: unknown, state: RenderState): Promise<unknown> {
  if (typeof value === "string") return renderString(value, state);
  if (Array.isArray(value)) return Promise.all(value.map((item, index) => renderAt(item, { ...state, location: [...state.location, index] })));
  if (isPlainObject(value)) {
    const entries = await Promise.all(
      Object.entries(value).map(async ([key, item]) => [key, await renderAt(item, { ...state, location: [...state.location, key] })] as const),
    );
    // fromEntries defines keys, so a "__proto__" key stays data and never sets the prototype.
    return Object.fromEntries(entries);
  }
  return value;
}

function renderString(template: string, state: RenderState): Promise<unknown> {
  return withTemplateError(template, state.location.join("."), async () => {
    const parsed = parseTemplate(template);
    return renderParsed(parsed, state);
  });
}

function renderParsed(parsed: ParsedTemplate, { scope, sandbox }: RenderState): unknown | Promise<unknown> {
  switch (parsed.kind) {
    case "literal":
      return parsed.text;
    case "whole":
      return lookupPath(scope, parsed.path.segments);
    case "interpolated":
      return parsed.parts.map((part) => (part.kind === "text" ? part.text : insertedText(lookupPath(scope, part.path.segments)))).join("");
    case "expression":
      return sandbox.evaluate(parsed.source, scope);
  }
}

async function withTemplateError<T>(template: string, location: string, render: () => Promise<T>): Promise<T> {
  try {
    return await render();
  } catch (error) {
    throw new TemplateError(template, location, error);
  }
}

/** Objects as parsed from YAML or JSON; class instances (a Date…) are left as they are. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
