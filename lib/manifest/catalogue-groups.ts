import type { CatalogueNode } from "./catalogue";

export interface CatalogueGroup {
  category: string;
  /** Indexes into the catalogue's node list, in its order. */
  indexes: number[];
}

/** Nodes grouped by category, categories A→Z, broken nodes (no manifest) last under "Broken". */
export function groupByCategory(nodes: readonly CatalogueNode[]): CatalogueGroup[] {
  const groups = new Map<string, number[]>();
  nodes.forEach((node, index) => {
    const category = node.manifest?.interface.category ?? "Broken";
    groups.set(category, [...(groups.get(category) ?? []), index]);
  });
  return [...groups.entries()]
    .sort(([a], [b]) => (a === "Broken" ? 1 : b === "Broken" ? -1 : a.localeCompare(b)))
    .map(([category, indexes]) => ({ category, indexes }));
}

/** Where a node came from, in words: first-party, or imported from its origin. */
export function nodeSource(node: CatalogueNode): { label: string; notes: string[] } {
  const source = node.manifest?.interface.source;
  if (!source) return { label: "First-party (written for Switchboard)", notes: [] };
  return { label: `Imported from ${source.from}${source.license ? ` (${source.license})` : ""}`, notes: source.notes };
}
