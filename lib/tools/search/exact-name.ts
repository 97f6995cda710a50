import type { SearchableTool } from "./searchable-tool";

/**
 * A tool name with case and separators removed, so `create_incident`,
 * `createIncident`, `create-incident` and "Create Incident" all meet.
 */
export function nameKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Name key → tools, for both `name` and `server` + `name` (as in "pagerduty.create_incident"). */
export function exactNameTable(tools: readonly SearchableTool[]): Map<string, number[]> {
  const table = new Map<string, number[]>();
  const add = (key: string, document: number): void => {
    if (!key) return;
    const documents = table.get(key) ?? [];
    if (documents.length === 0) table.set(key, documents);
    if (!documents.includes(document)) documents.push(document);
  };
  tools.forEach((tool, document) => {
    add(nameKey(tool.name), document);
    add(nameKey(`${tool.server}${tool.name}`), document);
  });
  return table;
}
