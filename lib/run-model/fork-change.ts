/**
 * What a fork changes, besides replaying its parent: recorded on the fork's
 * Run row (`forkChange`, JSON) and shown on its page and on /runs.
 * - `none`: the step as recorded (a fork to see the rest again, live);
 * - `result`: the forked step's value edited (a tool's result, a model's answer, a step's outputs);
 * - `prompt` / `model`: the system prompt or the model of the agent whose step it is, from the fork point on;
 * - `document`: another document (the workflow's current saved version, or a file), `changedNodes` the nodes it changed.
 */
export type ForkChange =
  | { kind: "none" }
  | { kind: "result" }
  | { kind: "prompt"; nodeId: string; prompt: string }
  | { kind: "model"; nodeId: string; from: string | null; model: string }
  | { kind: "document"; source: "workflow" | "file"; changedNodes: string[] };

/** The change in words, for the run page's header and the /runs list. */
export function describeForkChange(change: ForkChange | null): string {
  if (!change) return "as recorded or with an edited value";
  switch (change.kind) {
    case "none":
      return "as recorded";
    case "result":
      return "with an edited value";
    case "prompt":
      return `with a different system prompt for ${change.nodeId}: “${change.prompt.length > 80 ? `${change.prompt.slice(0, 79)}…` : change.prompt}”`;
    case "model":
      return `with model ${change.model} for ${change.nodeId}${change.from ? ` (was ${change.from})` : ""}`;
    case "document":
      return `with ${change.source === "workflow" ? "the workflow's current saved version" : "another document"}${change.changedNodes.length ? ` (changed: ${change.changedNodes.join(", ")})` : " (no node changed)"}`;
  }
}

/** Reads a stored `forkChange` column; null when absent or unreadable (forks made before it was kept). */
export function readForkChange(text: unknown): ForkChange | null {
  if (typeof text !== "string" || text === "") return null;
  try {
    const value = JSON.parse(text) as ForkChange;
    return value && typeof value === "object" && typeof value.kind === "string" ? value : null;
  } catch {
    return null;
  }
}

/**
 * Where a journal key's step sits: the node of its node run
 * (`agent#1/t3/c0` → `agent`), and whether the step is inside a task's
 * sub-flow (`<task call id>/researcher#1/t1`: the key starts with the task
 * call's id), whose nodes are not the run document's own. Null for a key
 * that names no node run (`context/…`).
 */
export function stepNode(key: string): { nodeId: string; nested: boolean } | null {
  const segments = key.split("/");
  const index = segments.findIndex((segment) => /^.+#\d+$/.test(segment));
  if (index < 0) return null;
  return { nodeId: segments[index].replace(/#\d+$/, ""), nested: index > 0 };
}

