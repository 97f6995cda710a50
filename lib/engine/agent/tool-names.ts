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
