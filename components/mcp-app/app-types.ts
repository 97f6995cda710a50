/** A tool's UI as the page gets it: framed (`src`: its document's route, GET /app-frame/<run id>), shown as text with the reason, none declared, or not loadable. */
export type ToolAppAnswer =
  | { kind: "app"; uri: string; src: string; prefersBorder: boolean }
  | { kind: "text"; uri: string; reason: string }
  | { kind: "none" }
  | { kind: "error"; error: string };

/** An MCP tool result, as the frame receives it. */
export interface AppToolResult {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What the host answers a frame's tools/call: the result, a refusal with its reason, or a question for the person at the frame. */
export type AppCallAnswer = { status: "called"; result: AppToolResult } | { status: "refused"; reason: string } | { status: "needs-approval"; reason: string };

/** The call a frame shows: its run, the node run that made it (or waits), its server and tool. */
export interface AppCallOrigin {
  runId: string;
  nodeRunId: string;
  server: string;
  tool: string;
}

/** A trace row's result as the MCP result the frame is sent (`ui/notifications/tool-result`). */
export function toolResultOf(call: { result: unknown; error: string | null; isError: boolean }): AppToolResult {
  const text = call.isError ? (call.error ?? "") : typeof call.result === "string" ? call.result : JSON.stringify(call.result ?? null);
  const structured = !call.isError && typeof call.result === "object" && call.result !== null && !Array.isArray(call.result) ? (call.result as Record<string, unknown>) : undefined;
  return { content: [{ type: "text", text }], ...(structured ? { structuredContent: structured } : {}), ...(call.isError ? { isError: true } : {}) };
}
