/**
 * How an agent's tools are named and weighed before a model sees them.
 * Pure, so the engine (which decides) and the canvas (which shows the
 * decision ahead of a run) use the same numbers.
 */

/** Above this many tokens of tool definitions, an agent starts with search_tools and call_tool instead. */
export const discoveryThresholdTokens = 2000;

/** A tool as a model reads it. */
export interface ModelToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * A rough token count of tool definitions as a model reads them: about four
 * characters a token over the JSON. Good enough to choose a mode; the
 * choice is made once per run, so the offered list never changes.
 */
export function estimateTokens(definitions: readonly ModelToolDefinition[]): number {
  return Math.ceil(JSON.stringify(definitions).length / 4);
}

/**
 * Names a model can take for every tool: vendors allow letters, digits, _
 * and - (OpenAI refuses dots), at most 64 characters. Clashes get a suffix.
 *
 * @example modelToolNames(["docs.search", "docs_search"]) // ["docs_search", "docs_search_2"]
 */
export function modelToolNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = name.replace(/[^A-Za-z0-9_-]/g, "_").replace(/^[^A-Za-z]+/, "").slice(0, 60) || "tool";
    let candidate = base;
    for (let index = 2; taken.has(candidate); index++) candidate = `${base.slice(0, 60)}_${index}`;
    taken.add(candidate);
    return candidate;
  });
}
