import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

// One validator for the lint: JSON Schema draft-07 with formats; `ui:` keys are ours. Each schema is
// compiled to check it once (and its default), so the generated code is not optimised: a tenth of a cold lint.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, code: { optimize: false } });
(addFormats as unknown as (instance: Ajv) => void)(ajv);
for (const keyword of uiKeywords()) ajv.addKeyword(keyword);

/** The inspector's keys: they describe how a field is drawn, never what it accepts. */
function uiKeywords(): string[] {
  return ["ui:widget", "ui:placeholder", "ui:field", "ui:dependencies", "ui:options", "ui:help", "ui:title", "enumNames", "step"];
}

export type Compiled = { ok: true; validate: (value: unknown) => boolean; errors: () => string } | { ok: false; message: string };

/** Keys that describe a value without constraining it: schemas differing only in these validate alike. */
const annotationKeys = new Set(["title", "description", "default", "examples", "$schema", ...uiKeywords()]);
const cache = new Map<string, Compiled>();
const maxCached = 5000;

/** A cache key for what a schema checks, so nodes that share a shape share a compiled validator. */
function validationKey(schema: object): string {
  return JSON.stringify(withoutAnnotations(schema, false));
}

/** The schema without its annotations; names under `properties` are property names (a property may be called `description`), never annotations. */
function withoutAnnotations(value: unknown, namesOnly: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutAnnotations(item, false));
  if (value === null || typeof value !== "object") return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!namesOnly && annotationKeys.has(key)) continue;
    result[key] = withoutAnnotations(item, !namesOnly && (key === "properties" || key === "patternProperties" || key === "definitions" || key === "$defs"));
  }
  return result;
}

/** Compiles a JSON Schema once per shape; a schema that does not compile says why. */
export function compileSchema(schema: object): Compiled {
  const key = validationKey(schema);
  const cached = cache.get(key);
  if (cached) return cached;
  let compiled: Compiled;
  try {
    const validate: ValidateFunction = ajv.compile(JSON.parse(key));
    compiled = { ok: true, validate: (value) => validate(value) as boolean, errors: () => ajv.errorsText(validate.errors, { dataVar: "value" }) };
  } catch (error) {
    compiled = { ok: false, message: (error as Error).message.split("\n")[0] };
  }
  if (cache.size >= maxCached) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

// Arguments from a model or a form get their defaults filled in; the lint's instance never changes data.
const argumentsAjv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
(addFormats as unknown as (instance: Ajv) => void)(argumentsAjv);
for (const keyword of uiKeywords()) argumentsAjv.addKeyword(keyword);
const argumentValidators = new WeakMap<object, ValidateFunction>();

export type ArgumentsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/**
 * Checks arguments against an object schema and fills in defaults, on a copy.
 * The message names each field that is wrong, e.g. "/country must be string".
 */
export function checkArguments(schema: object, args: unknown): ArgumentsCheck {
  let validate = argumentValidators.get(schema);
  if (!validate) {
    validate = argumentsAjv.compile(schema);
    argumentValidators.set(schema, validate);
  }
  const value = structuredClone(args ?? {}) as Record<string, unknown>;
  if (validate(value)) return { ok: true, value };
  const message = (validate.errors ?? [])
    .map((error) => `${error.instancePath || "arguments"} ${error.message}${error.keyword === "additionalProperties" ? ` ('${(error.params as { additionalProperty: string }).additionalProperty}')` : ""}`)
    .join("; ");
  return { ok: false, message };
}
