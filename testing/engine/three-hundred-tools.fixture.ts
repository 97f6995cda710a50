import { readFileSync } from "node:fs";
import path from "node:path";
import type { AgentTool } from "../../lib/tools/agent-tool";

interface CatalogueTool {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * TEST DOUBLE: 300 realistic tools: the search bench's catalogue, plus
 * renamed copies of it on other servers. Each answers "<name> done" and
 * logs "server/name" into `ran`.
 */
export function threeHundredTools(ran: string[] = []): AgentTool[] {
  const catalogue = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../bench/tool-search-catalogue.json"), "utf8")) as CatalogueTool[];
  const copies = catalogue.slice(0, 300 - catalogue.length).map((tool) => ({ ...tool, server: `${tool.server}-mirror`, name: `${tool.name}_mirror` }));
  return [...catalogue, ...copies].map((tool) => ({
    ...tool,
    call: async () => {
      ran.push(`${tool.server}/${tool.name}`);
      return { output: `${tool.name} done`, isError: false };
    },
  }));
}
