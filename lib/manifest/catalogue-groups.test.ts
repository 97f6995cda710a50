import { describe, expect, it } from "vitest";
import type { CatalogueNode } from "./catalogue";
import { groupByCategory, nodeSource } from "./catalogue-groups";

const node = (name: string, category?: string, source?: { from: string; license?: string; notes: string[] }): CatalogueNode =>
  ({ name, dir: `nodes/${name}`, problems: [], manifest: category ? { interface: { category, ...(source ? { source } : {}) } } : null }) as unknown as CatalogueNode;

describe("the catalogue page's groups", () => {
  it("groups by category A→Z with broken nodes last", () => {
    const groups = groupByCategory([node("slack", "Chat"), node("broken"), node("rss", "Web"), node("discord", "Chat")]);
    expect(groups).toEqual([{ category: "Chat", indexes: [0, 3] }, { category: "Web", indexes: [2] }, { category: "Broken", indexes: [1] }]);
  });
  it("names each node's source and keeps the importer's notes", () => {
    expect(nodeSource(node("slack", "Chat")).label).toMatch(/^First-party/);
    const imported = nodeSource(node("search-web", "Search", { from: "unoverse-platform/marketplace search/SearchWeb", license: "MIT", notes: ["config keys not carried: resolve"] }));
    expect(imported).toEqual({ label: "Imported from unoverse-platform/marketplace search/SearchWeb (MIT)", notes: ["config keys not carried: resolve"] });
  });
});
