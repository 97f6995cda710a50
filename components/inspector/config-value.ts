import type { JsonSchema } from "@/lib/manifest/browser";

/** A path inside a config: property names and array indexes, e.g. ["inputs", 0, "name"]. */
export type ConfigPath = readonly (string | number)[];

/** `inputs.0.name`: how validation names a field. */
export function pathKey(path: ConfigPath): string {
  return path.map(String).join(".");
}

/** The config with the value at path replaced (undefined removes it), copied along the path only. */
export function setAt(value: unknown, path: ConfigPath, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const list = Array.isArray(value) ? value.slice() : [];
    list[head] = setAt(list[head], rest, next);
    return list;
  }
  const object = typeof value === "object" && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  const child = setAt(object[head], rest, next);
  if (child === undefined) delete object[head];
  else object[head] = child;
  return object;
}

/** The properties of an object schema in the inspector's order: `ui:order` first, the rest as declared. */
export function orderedProperties(schema: JsonSchema, order: readonly string[] = []): [string, JsonSchema][] {
  const properties = Object.entries(schema.properties ?? {});
  const rank = (name: string) => {
    const index = order.indexOf(name);
    return index === -1 ? order.length : index;
  };
  return properties.map((entry, index) => ({ entry, index })).sort((a, b) => rank(a.entry[0]) - rank(b.entry[0]) || a.index - b.index).map(({ entry }) => entry);
}

/**
 * The properties to draw for this config: those without `ui:dependencies`,
 * and those whose dependencies the config meets (a setting left out counts
 * as its default). A Start's webhook settings show only on a webhook Start.
 */
export function shownProperties(properties: readonly [string, JsonSchema][], config: Record<string, unknown>): [string, JsonSchema][] {
  const byName = new Map(properties);
  return properties.filter(([, property]) =>
    Object.entries(property["ui:dependencies"] ?? {}).every(([name, wanted]) => (config[name] ?? byName.get(name)?.default) === wanted),
  );
}

/** The JSON type a field edits, reading a list of types by its first non-null one. */
export function schemaType(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== "null");
  return schema.type;
}

/** An array whose items are objects with declared properties: edited as rows of fields. */
export function isObjectList(schema: JsonSchema): boolean {
  return schemaType(schema) === "array" && schema.items !== undefined && schemaType(schema.items) === "object" && schema.items.properties !== undefined;
}

/** A fresh item for such a list: each property's default, or nothing. */
export function newItem(schema: JsonSchema): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.items?.properties ?? {})) {
    if (property.default !== undefined) item[name] = structuredClone(property.default);
    else if (schemaType(property) === "string" && (schema.items?.required ?? []).includes(name)) item[name] = "";
  }
  return item;
}
