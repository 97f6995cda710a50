import type { SearchableTool } from "./searchable-tool";

/**
 * Each tool's place when ordered by server, then name, then catalogue
 * position: equal scores are ordered by it, so results do not depend on
 * the order scores were added up in.
 */
export function tieRanks(tools: readonly SearchableTool[]): Int32Array {
  const order = tools.map((_, position) => position);
  order.sort((a, b) => compareText(tools[a].server, tools[b].server) || compareText(tools[a].name, tools[b].name) || a - b);
  const ranks = new Int32Array(tools.length);
  order.forEach((document, rank) => (ranks[document] = rank));
  return ranks;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
