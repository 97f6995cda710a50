import type { SearchableTool } from "./searchable-tool";

/** The parts of a tool that are indexed apart, each with its own weight. */
export type FieldName = "name" | "server" | "description" | "parameterNames" | "parameterDescriptions";

export const fieldNames: readonly FieldName[] = ["name", "server", "description", "parameterNames", "parameterDescriptions"];

/** The raw text of each field of a tool, before tokenizing. */
export type ToolFieldText = Record<FieldName, string>;

/** How deep nested parameter objects are followed; deeper ones add little and cost index size. */
const maxSchemaDepth = 4;

/**
 * The searchable text of a tool, one string per field. Parameter names and
 * descriptions come from the input schema's `properties`, followed into
 * nested objects, array `items` and `anyOf` / `oneOf` / `allOf`; `title`
 * and string `enum` values count as parameter descriptions.
 */
export function toolFieldText(tool: SearchableTool): ToolFieldText {
  const names: string[] = [];
  const descriptions: string[] = [];
  collectParameters(tool.inputSchema, names, descriptions, 0);
  return {
    name: tool.name,
    server: tool.server,
    description: tool.description,
    parameterNames: names.join(" "),
    parameterDescriptions: descriptions.join(" "),
  };
}

function collectParameters(schema: unknown, names: string[], descriptions: string[], depth: number): void {
  if (!isRecord(schema) || depth > maxSchemaDepth) return;
  if (depth > 0) {
    if (typeof schema.description === "string") descriptions.push(schema.description);
    if (typeof schema.title === "string") descriptions.push(schema.title);
    if (Array.isArray(schema.enum)) descriptions.push(...schema.enum.filter((value): value is string => typeof value === "string"));
  }
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      names.push(name);
      collectParameters(property, names, descriptions, depth + 1);
    }
  }
  if (schema.items !== undefined) collectParameters(schema.items, names, descriptions, depth + 1);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const variants = schema[key];
    if (Array.isArray(variants)) for (const variant of variants) collectParameters(variant, names, descriptions, depth + 1);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
