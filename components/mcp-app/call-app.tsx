"use client";

import type { ToolCallRecord } from "@/lib/trace/browser";
import { useToolAppActions } from "./app-actions";
import { toolResultOf, type AppCallOrigin } from "./app-types";
import { ToolApp } from "./tool-app";

/** Built-in rows (approval decisions, service nodes' own calls) have no registry server behind them. */
const hostServers = new Set(["switchboard"]);

function argumentsOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A trace row's MCP App: the tool's UI with the call's input and result, under the row's arguments and result. */
export function CallApp({ call }: { call: ToolCallRecord }) {
  const actions = useToolAppActions();
  if (!actions || !call.nodeRunId || hostServers.has(call.server)) return null;
  return <ToolApp origin={{ runId: call.runId, nodeRunId: call.nodeRunId, server: call.server, tool: call.tool }} toolInput={argumentsOf(call.arguments)} toolResult={toolResultOf(call)} load={actions.load} call={actions.call} />;
}

/** A call waiting for approval: its tool's UI with the input only, so a person approves what they can see. */
export function WaitingCallApp({ runId, request }: { runId: string; request: { nodeRunId?: string; server: string; tool: string; arguments?: unknown } }) {
  const actions = useToolAppActions();
  if (!actions || !request.nodeRunId) return null;
  return <ToolApp origin={{ runId, nodeRunId: request.nodeRunId, server: request.server, tool: request.tool }} toolInput={argumentsOf(request.arguments)} load={actions.load} call={actions.call} />;
}

/** A chat tool part's place (`toolMetadata` from the chat stream): its run, node run, server and tool, or null when it names none. */
function chatPlaceOf(value: unknown): AppCallOrigin | null {
  if (typeof value !== "object" || value === null) return null;
  const { runId, nodeRunId, server, tool } = value as Record<string, unknown>;
  return typeof runId === "string" && typeof nodeRunId === "string" && typeof server === "string" && typeof tool === "string" ? { runId, nodeRunId, server, tool } : null;
}

/** A chat bubble's tool call, once it has its result: the tool's UI with the call's input and result, as on its trace row. */
export function ChatCallApp({ place, toolInput, call }: { place: unknown; toolInput: unknown; call: { result: unknown; error: string | null; isError: boolean } }) {
  const actions = useToolAppActions();
  const origin = chatPlaceOf(place);
  if (!actions || !origin || hostServers.has(origin.server)) return null;
  return <ToolApp origin={origin} toolInput={argumentsOf(toolInput)} toolResult={toolResultOf(call)} load={actions.load} call={actions.call} />;
}
