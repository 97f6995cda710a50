import type { SearchableTool } from "./searchable-tool";
import { ToolSearchError } from "./tool-search-error";

/**
 * Checks that a parsed JSON value is a list of searchable tools and returns
 * it typed; throws a ToolSearchError (`invalid-tools`) naming the first
 * item and field that is wrong. `source` names where the value came from.
 *
 * @example parseSearchableTools(JSON.parse(text), "tools.json")
 */
export function parseSearchableTools(value: unknown, source: string): SearchableTool[] {
  if (!Array.isArray(value)) {
    throw new ToolSearchError("invalid-tools", `${source}: expected an array of tools, found ${describe(value)}`, { place: source });
  }
  return value.map((item, position) => parseTool(item, `${source}: tool ${position}`));
}

function parseTool(item: unknown, place: string): SearchableTool {
  if (!isRecord(item)) throw new ToolSearchError("invalid-tools", `${place}: expected an object, found ${describe(item)}`, { place });
  for (const field of ["server", "name"] as const) {
    if (typeof item[field] !== "string" || item[field] === "") {
      throw new ToolSearchError("invalid-tools", `${place}: "${field}" must be a non-empty string, found ${describe(item[field])}`, { place });
    }
  }
  const named = `${place} (${String(item.name)})`;
  if (typeof item.description !== "string") {
    throw new ToolSearchError("invalid-tools", `${named}: "description" must be a string, found ${describe(item.description)}`, { place });
  }
  if (!isRecord(item.inputSchema)) {
    throw new ToolSearchError("invalid-tools", `${named}: "inputSchema" must be a JSON Schema object, found ${describe(item.inputSchema)}`, { place });
  }
  return { server: item.server as string, name: item.name as string, description: item.description, inputSchema: item.inputSchema };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}
