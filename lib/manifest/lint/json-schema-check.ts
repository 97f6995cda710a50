import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

// One validator for the lint: JSON Schema draft-07 with formats; `ui:` keys are ours.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
(addFormats as unknown as (instance: Ajv) => void)(ajv);
ajv.addKeyword("ui:widget");
ajv.addKeyword("ui:placeholder");

export type Compiled = { ok: true; validate: (value: unknown) => boolean; errors: () => string } | { ok: false; message: string };

const cache = new WeakMap<object, Compiled>();

/** Compiles a JSON Schema once; a schema that does not compile says why. */
export function compileSchema(schema: object): Compiled {
  const cached = cache.get(schema);
  if (cached) return cached;
  let compiled: Compiled;
  try {
    const validate: ValidateFunction = ajv.compile(schema);
    compiled = { ok: true, validate: (value) => validate(value) as boolean, errors: () => ajv.errorsText(validate.errors, { dataVar: "value" }) };
  } catch (error) {
    compiled = { ok: false, message: (error as Error).message.split("\n")[0] };
  }
  cache.set(schema, compiled);
  return compiled;
}
