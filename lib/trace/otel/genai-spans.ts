import type { NodeEndEvent, NodeStartEvent, RunEndEvent, RunStartEvent, ToolCallRow } from "../run-events";
import type { TimelineWait } from "../trace-types";
import type { ModelTurnLike } from "../run-steps";
import { describeRunOrigin, type RunOrigin } from "../../run-model";

/**
 * One finished span as plain data, following the OpenTelemetry GenAI
 * conventions (development status): the run is `invoke_workflow`, an agent
 * node run `invoke_agent {node}`, a model turn `chat {model}`, a tool call
 * `execute_tool {tool}`; what is Switchboard's own (taint, node types,
 * statuses) is under `switchboard.*`. Arguments, results, inputs and
 * outputs are attributes only when the user opted in (`captureContent`).
 * Pure: readable-span.ts turns these into the SDK's spans.
 */

export type AttributeValue = string | number | boolean | string[];

export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  /** The parent is another process's span (a host's traceparent). */
  parentIsRemote: boolean;
  name: string;
  kind: "internal" | "client";
  startedAt: string;
  endedAt: string;
  status: { code: "unset" | "ok" | "error"; message?: string };
  attributes: Record<string, AttributeValue>;
}

/** Where a span hangs: its trace and its parent. */
export interface SpanPlace {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  parentIsRemote?: boolean;
}

export interface ContentOptions {
  captureContent: boolean;
}

/** Longest attribute value kept for captured content; the rest is cut with a marker. */
export const contentLimit = 16_000;

export function workflowSpan(place: SpanPlace, start: RunStartEvent, end: RunEndEvent, extra: { workflowName: string | null; origin?: RunOrigin | null; taintSources: string[] } & ContentOptions): SpanRecord {
  const name = extra.workflowName ? `invoke_workflow ${extra.workflowName}` : "invoke_workflow";
  return {
    ...placeOf(place),
    name,
    kind: "internal",
    startedAt: start.startedAt,
    endedAt: end.endedAt,
    status: end.status === "completed" ? { code: "ok" } : { code: "error", message: end.error ?? `the run ended ${end.status}` },
    attributes: compact({
      "gen_ai.operation.name": "invoke_workflow",
      "gen_ai.workflow.name": extra.workflowName ?? undefined,
      "switchboard.run.id": start.runId,
      "switchboard.workflow.id": start.workflowId ?? undefined,
      "switchboard.run.status": end.status,
      // How the run started (canvas, cli, api, webhook, schedule, mcp-host, fork) and who or what started it.
      "switchboard.run.origin": extra.origin?.kind,
      "switchboard.run.origin.detail": extra.origin ? describeRunOrigin(extra.origin) : undefined,
      "error.type": end.status === "completed" ? undefined : `run_${end.status}`,
      "switchboard.tainted": extra.taintSources.length > 0,
      "switchboard.taint.sources": extra.taintSources.length > 0 ? extra.taintSources : undefined,
      "switchboard.run.input": content(start.input, extra),
      "switchboard.run.outputs": content(end.outputs, extra),
    }),
  };
}

/** A node run: `invoke_agent {node id}` for an agent, `run_node {node id}` for any other node (a step, a Start, an End). */
export function nodeSpan(place: SpanPlace, start: NodeStartEvent, end: NodeEndEvent, extra: { agent: boolean } & ContentOptions): SpanRecord {
  const tainted = end.taintedOutputs ?? [];
  return {
    ...placeOf(place),
    name: extra.agent ? `invoke_agent ${start.nodeId}` : `run_node ${start.nodeId}`,
    kind: "internal",
    startedAt: start.startedAt,
    endedAt: end.endedAt,
    status: end.status === "completed" ? { code: "ok" } : { code: "error", message: end.error ?? `the node ended ${end.status}` },
    attributes: compact({
      "gen_ai.operation.name": extra.agent ? "invoke_agent" : undefined,
      "gen_ai.agent.name": extra.agent ? start.nodeId : undefined,
      "switchboard.node.id": start.nodeId,
      "switchboard.node.type": start.nodeType,
      "switchboard.node_run.id": start.nodeRunId,
      "switchboard.node.status": end.status,
      "switchboard.node.turns": extra.agent ? end.turns : undefined,
      "error.type": end.status === "completed" ? undefined : `node_${end.status}`,
      "switchboard.tainted": tainted.length > 0,
      "switchboard.tainted_outputs": tainted.length > 0 ? tainted : undefined,
      "switchboard.node.inputs": content(start.inputs, extra),
      "switchboard.node.outputs": content(end.outputs, extra),
    }),
  };
}

export function toolSpan(place: SpanPlace, row: ToolCallRow, options: ContentOptions): SpanRecord {
  return {
    ...placeOf(place),
    name: `execute_tool ${row.tool}`,
    kind: "internal",
    startedAt: row.startedAt,
    endedAt: new Date(Date.parse(row.startedAt) + Math.max(0, row.durationMs)).toISOString(),
    status: row.isError ? { code: "error", message: row.error ?? "the tool answered with an error" } : { code: "unset" },
    attributes: compact({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": row.tool,
      "gen_ai.tool.call.id": row.id,
      "switchboard.tool.server": row.server,
      "switchboard.caller": row.caller,
      "switchboard.tainted": row.tainted,
      "error.type": row.isError ? "tool_error" : undefined,
      "gen_ai.tool.call.arguments": content(row.arguments, options),
      "gen_ai.tool.call.result": row.isError ? undefined : content(row.result, options),
    }),
  };
}

/**
 * A wait of the run's timeline (queued, for approval, for an answer, for a
 * worker after a crash): `wait {kind}`, with who or what ended it. An open
 * wait ends at `until` (the export's now).
 */
export function waitSpan(place: SpanPlace, wait: TimelineWait, until: string): SpanRecord {
  return {
    ...placeOf(place),
    name: `wait ${wait.kind}`,
    kind: "internal",
    startedAt: wait.startedAt,
    endedAt: wait.endedAt ?? until,
    status: { code: "unset" },
    attributes: compact({
      "switchboard.wait.kind": wait.kind,
      "switchboard.wait.ended_by": wait.endedBy ?? undefined,
      "switchboard.wait.call_key": wait.callKey ?? undefined,
      "switchboard.wait.label": wait.label,
    }),
  };
}

/** A model turn (rows that come with the durable-runs journal): `chat {model}` with its usage. */
export function chatSpan(place: SpanPlace, turn: ModelTurnLike, options: ContentOptions): SpanRecord {
  const answer = turn.toolCalls?.length ? { role: "assistant", content: turn.text, toolCalls: turn.toolCalls } : { role: "assistant", content: turn.text };
  return {
    ...placeOf(place),
    name: `chat ${turn.model}`,
    kind: "client",
    startedAt: turn.startedAt,
    endedAt: new Date(Date.parse(turn.startedAt) + Math.max(0, turn.durationMs)).toISOString(),
    status: { code: "unset" },
    attributes: compact({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": turn.model,
      "gen_ai.provider.name": turn.provider ?? undefined,
      "gen_ai.usage.input_tokens": turn.inputTokens ?? undefined,
      "gen_ai.usage.output_tokens": turn.outputTokens ?? undefined,
      "gen_ai.response.finish_reasons": turn.finishReason ? [turn.finishReason] : undefined,
      "switchboard.cost_usd": turn.costUsd ?? undefined,
      "gen_ai.output.messages": content([answer], options),
    }),
  };
}

function placeOf(place: SpanPlace): Pick<SpanRecord, "traceId" | "spanId" | "parentSpanId" | "parentIsRemote"> {
  return { traceId: place.traceId, spanId: place.spanId, parentSpanId: place.parentSpanId, parentIsRemote: place.parentIsRemote ?? false };
}

/** A value as JSON text for an opt-in content attribute; undefined when the user did not opt in. */
function content(value: unknown, options: ContentOptions): string | undefined {
  if (!options.captureContent || value === undefined) return undefined;
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > contentLimit ? `${text.slice(0, contentLimit)}…(cut at ${contentLimit} characters)` : text;
}

function compact(attributes: Record<string, AttributeValue | undefined>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(attributes).filter((entry): entry is [string, AttributeValue] => entry[1] !== undefined));
}
