/**
 * The form a person answers a tool's question with (MCP elicitation, form
 * mode), generated from the requested schema: a flat object whose
 * properties are strings (with `format` email, uri, date, date-time),
 * numbers, integers, booleans, single-choice enums (`enum`, `oneOf` with
 * titles, the legacy `enumNames`) and multi-choice arrays. Pure: the
 * browser draws the fields, the server turns the submitted values back into
 * content with `contentFromForm` and checks them against the schema.
 */
export type QuestionField = FieldBase &
  (
    | { kind: "text"; format?: "email" | "uri" | "date" | "date-time"; minLength?: number; maxLength?: number; default?: string }
    | { kind: "number"; integer: boolean; minimum?: number; maximum?: number; default?: number }
    | { kind: "boolean"; default?: boolean }
    | { kind: "choice"; options: FieldOption[]; default?: string }
    | { kind: "choices"; options: FieldOption[]; minItems?: number; maxItems?: number; default?: string[] }
  );

interface FieldBase {
  name: string;
  /** The property's title, else its name. */
  label: string;
  description?: string;
  required: boolean;
}

export interface FieldOption {
  value: string;
  label: string;
}

/** What the form sends for each field: its text, or the ticked values of a multi-choice. */
export type FormValues = Readonly<Record<string, string | readonly string[] | undefined>>;

type Property = Record<string, unknown>;

/** The fields of a requested schema, in its order; a property of a kind the spec does not allow is drawn as text. */
export function questionFields(schema: Record<string, unknown>): QuestionField[] {
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => fieldOf(name, property, required.has(name)));
}

function fieldOf(name: string, property: Property, required: boolean): QuestionField {
  const base: FieldBase = { name, label: typeof property.title === "string" && property.title ? property.title : name, required, ...(typeof property.description === "string" ? { description: property.description } : {}) };
  const options = optionsOf(property);
  if (property.type === "array") {
    const items = (property.items ?? {}) as Property;
    return { ...base, kind: "choices", options: optionsOf(items) ?? [], ...numberKey(property, "minItems"), ...numberKey(property, "maxItems"), ...(Array.isArray(property.default) ? { default: property.default.map(String) } : {}) };
  }
  if (options) return { ...base, kind: "choice", options, ...(typeof property.default === "string" ? { default: property.default } : {}) };
  if (property.type === "boolean") return { ...base, kind: "boolean", ...(typeof property.default === "boolean" ? { default: property.default } : {}) };
  if (property.type === "number" || property.type === "integer") {
    return { ...base, kind: "number", integer: property.type === "integer", ...numberKey(property, "minimum"), ...numberKey(property, "maximum"), ...(typeof property.default === "number" ? { default: property.default } : {}) };
  }
  const format = ["email", "uri", "date", "date-time"].includes(property.format as string) ? (property.format as "email") : undefined;
  return { ...base, kind: "text", ...(format ? { format } : {}), ...numberKey(property, "minLength"), ...numberKey(property, "maxLength"), ...(typeof property.default === "string" ? { default: property.default } : {}) };
}

/** The choices of an enum property: `oneOf`/`anyOf` of `{ const, title }`, or `enum` with the legacy `enumNames` as labels. */
function optionsOf(property: Property): FieldOption[] | undefined {
  const titled = (property.oneOf ?? property.anyOf) as Array<{ const?: unknown; title?: unknown }> | undefined;
  if (Array.isArray(titled)) return titled.map((option) => ({ value: String(option.const), label: typeof option.title === "string" ? option.title : String(option.const) }));
  if (!Array.isArray(property.enum)) return undefined;
  const names = Array.isArray(property.enumNames) ? (property.enumNames as unknown[]) : [];
  return property.enum.map((value, index) => ({ value: String(value), label: typeof names[index] === "string" ? (names[index] as string) : String(value) }));
}

function numberKey<K extends string>(property: Property, key: K): Partial<Record<K, number>> {
  return typeof property[key] === "number" ? ({ [key]: property[key] } as Record<K, number>) : {};
}

export type FormContent = { ok: true; content: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/**
 * The submitted values as the content the tool receives: numbers parsed,
 * booleans from a ticked box, empty optional fields left out. Says which
 * field is wrong and why; the server then checks the whole against the
 * schema (formats, ranges) as well.
 */
export function contentFromForm(fields: readonly QuestionField[], values: FormValues): FormContent {
  const content: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = values[field.name];
    const text = typeof raw === "string" ? raw.trim() : "";
    if (field.kind === "boolean") {
      content[field.name] = raw === "true" || raw === "on";
      continue;
    }
    if (field.kind === "choices") {
      const picked = (Array.isArray(raw) ? raw : typeof raw === "string" && raw ? [raw] : []) as string[];
      const unknown = picked.find((value) => !field.options.some((option) => option.value === value));
      if (unknown !== undefined) errors[field.name] = `"${unknown}" is not one of the choices.`;
      else if (picked.length === 0 && !field.required) continue;
      else if (field.minItems !== undefined && picked.length < field.minItems) errors[field.name] = `Choose at least ${field.minItems}.`;
      else if (field.maxItems !== undefined && picked.length > field.maxItems) errors[field.name] = `Choose at most ${field.maxItems}.`;
      else content[field.name] = picked;
      continue;
    }
    if (text === "") {
      if (field.required) errors[field.name] = `${field.label} is required.`;
      continue;
    }
    if (field.kind === "number") {
      const number = Number(text);
      if (!Number.isFinite(number) || (field.integer && !Number.isInteger(number))) errors[field.name] = `${field.label} must be ${field.integer ? "a whole number" : "a number"}.`;
      else if (field.minimum !== undefined && number < field.minimum) errors[field.name] = `${field.label} must be at least ${field.minimum}.`;
      else if (field.maximum !== undefined && number > field.maximum) errors[field.name] = `${field.label} must be at most ${field.maximum}.`;
      else content[field.name] = number;
      continue;
    }
    if (field.kind === "choice" && !field.options.some((option) => option.value === text)) {
      errors[field.name] = `"${text}" is not one of the choices.`;
      continue;
    }
    content[field.name] = text;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}
