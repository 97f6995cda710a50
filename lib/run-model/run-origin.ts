/**
 * How a run started, and who or what started it. Written once with the Run
 * row by the run service; /runs filters by `kind`, and the OpenTelemetry
 * export carries it as `switchboard.run.origin`.
 */
export type RunOrigin =
  | { kind: "canvas"; by: string }
  | { kind: "cli"; by?: string }
  | { kind: "api"; by: string; tokenId?: string }
  | { kind: "webhook"; triggerId: string; deliveryId: string | null }
  | { kind: "schedule"; triggerId: string; tick: string }
  | { kind: "mcp-host"; by: string; host?: string }
  | { kind: "fork"; by?: string; parentRunId: string }
  | { kind: "test"; by?: string }
  /** A turn of a chat thread: the chat page, the playground beside the canvas, or the chat API. */
  | { kind: "chat"; by: string; threadId: string }
  /** One row of a dataset evaluation (lib/evals): the evaluation and the row's position in its dataset. */
  | { kind: "eval"; by?: string; evaluationId: string; row: number };

export type RunOriginKind = RunOrigin["kind"];

export const runOriginKinds: readonly RunOriginKind[] = ["canvas", "cli", "api", "webhook", "schedule", "mcp-host", "fork", "test", "eval", "chat"];

/** How /runs and the trace name each way in. */
export const runOriginLabels: Record<RunOriginKind, string> = {
  canvas: "Canvas",
  cli: "Command line",
  api: "HTTP API",
  webhook: "Webhook",
  schedule: "Schedule",
  "mcp-host": "MCP host",
  fork: "Fork",
  test: "Test",
  eval: "Evaluation",
  chat: "Chat",
};

export function isRunOriginKind(value: unknown): value is RunOriginKind {
  return typeof value === "string" && (runOriginKinds as readonly string[]).includes(value);
}

/** One line naming the origin: "Webhook, delivery 72d3…", "HTTP API, by ada@example.com". */
export function describeRunOrigin(origin: RunOrigin): string {
  const label = runOriginLabels[origin.kind];
  switch (origin.kind) {
    case "webhook":
      return origin.deliveryId ? `${label}, delivery ${origin.deliveryId}` : label;
    case "schedule":
      return `${label}, tick ${origin.tick}`;
    case "eval":
      return `${label} ${origin.evaluationId}, row ${origin.row + 1}`;
    case "fork":
      return `${label} of run ${origin.parentRunId}${origin.by ? `, by ${origin.by}` : ""}`;
    default:
      return "by" in origin && origin.by ? `${label}, by ${origin.by}` : label;
  }
}

/** An origin read back from its stored JSON; runs recorded before origins were kept read as the canvas's. */
export function parseRunOrigin(text: string | null | undefined): RunOrigin | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as { kind?: unknown };
    return value && typeof value === "object" && isRunOriginKind(value.kind) ? (value as RunOrigin) : null;
  } catch {
    return null;
  }
}
