/** A tool as the search sees it: where it lives, what it is called, what it does, what it takes. */
export interface SearchableTool {
  server: string;
  name: string;
  description: string;
  /** The tool's JSON Schema for its arguments; its property names and descriptions are searched too. */
  inputSchema: object;
}

/** One search result: the tool and how well it fits the query (higher is better; only the order is meaningful). */
export interface ToolMatch {
  tool: SearchableTool;
  score: number;
}

/** The default number of results, as `search_tools` offers them to a model. */
export const defaultResultCount = 5;
