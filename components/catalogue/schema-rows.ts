import type { JsonSchema } from "@/lib/manifest/browser";

/** One parameter of a JSON Schema object, flattened for a table. */
export interface ParameterRow {
  /** Dotted for nested properties: `address.city`, `items[].id`. */
  name: string;
  depth: number;
  type: string;
  required: boolean;
  description?: string;
  /** The allowed values, written as people type them. */
  allowed?: string[];
  /** Default, bounds, format… as short phrases. */
  constraints: string[];
}

interface ObjectLike {
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** How deep nested objects are unfolded before the table says just `object`. */
const maxDepth = 3;

/**
 * The parameters of an object schema as table rows, nested properties after
 * their parent.
 *
 * @example parameterRows({ properties: { q: { type: "string" } }, required: ["q"] })
 *   // [{ name: "q", type: "string", required: true, ... }]
 */
export function parameterRows(schema: ObjectLike, prefix = "", depth = 0): ParameterRow[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const name = `${prefix}${key}`;
    const row: ParameterRow = {
      name,
      depth,
      type: describeType(property),
      required: required.has(key),
      description: property.description ?? property.title,
      allowed: property.enum?.map(writeValue),
      constraints: describeConstraints(property),
    };
    if (depth + 1 >= maxDepth) return [row];
    const nested = property.properties
      ? parameterRows(property, `${name}.`, depth + 1)
      : property.items?.properties
        ? parameterRows(property.items, `${name}[].`, depth + 1)
        : [];
    return [row, ...nested];
  });
}

/** A schema's type as a short expression: `string`, `number[]`, `string | null`, `"fixed"`. */
export function describeType(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return alternatives.map(describeType).join(" | ");
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 0) return schema.enum ? "enum" : "any";
  return types
    .map((type) => {
      if (type !== "array") return type;
      const item = schema.items ? describeType(schema.items) : "any";
      return item.includes(" ") ? `(${item})[]` : `${item}[]`;
    })
    .join(" | ");
}

function describeConstraints(schema: JsonSchema): string[] {
  const phrases: string[] = [];
  if (schema.default !== undefined) phrases.push(`default ${writeValue(schema.default)}`);
  if (schema.minimum !== undefined) phrases.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) phrases.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) phrases.push(`≤ ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) phrases.push(`< ${schema.exclusiveMaximum}`);
  if (schema.multipleOf !== undefined) phrases.push(`multiple of ${schema.multipleOf}`);
  if (schema.minLength !== undefined) phrases.push(`at least ${count(schema.minLength, "character")}`);
  if (schema.maxLength !== undefined) phrases.push(`at most ${count(schema.maxLength, "character")}`);
  if (schema.minItems !== undefined) phrases.push(`at least ${count(schema.minItems, "item")}`);
  if (schema.maxItems !== undefined) phrases.push(`at most ${count(schema.maxItems, "item")}`);
  if (schema.uniqueItems) phrases.push("unique items");
  if (schema.format) phrases.push(`format ${schema.format}`);
  if (schema.pattern) phrases.push(`matches /${schema.pattern}/`);
  return phrases;
}

function writeValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function count(value: number, word: string): string {
  return `${value} ${word}${value === 1 ? "" : "s"}`;
}
