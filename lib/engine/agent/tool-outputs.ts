import type { EventsManifest } from "../../manifest";
import { renderValue, type Evaluator } from "../../sandbox";
import { joinValues } from "../../calls";
import type { ToolResultEvent } from "./agent-loop";

/** What a `from: tool` row reads as `tool`: one call a tool answered. */
export interface ToolEventValue {
  /** The tool's own name, as its server knows it. */
  name: string;
  /** Where it comes from: a node id, a server id, or "builtin". */
  server: string;
  arguments: unknown;
  /** The answer parsed when it is JSON, else its text. */
  result: unknown;
  isError: boolean;
}

/** Whether the agent has any `from: tool` row, so the loop needs telling after each call. */
export function hasToolRows(events: EventsManifest | undefined): boolean {
  return (events ?? []).some((row) => row.from === "tool");
}

/**
 * The outputs an agent puts out after one tool call: each `from: tool` row
 * whose `when` holds, over `{ tool, config, inputs }`; a row without a
 * `value` puts out `tool.result`. A row that cannot be computed is the
 * node's mistake: it throws, naming the output and the tool. An
 * `accumulate` row puts out the values of every call so far, joined (text)
 * or listed; `accumulated` keeps them between calls.
 *
 * @example await toolOutputs(events, { config, inputs }, event, evaluator) // { progress: { tool: "convertUnits", km: 42.16 } }
 */
export async function toolOutputs(
  events: EventsManifest | undefined,
  scope: { config: Record<string, unknown>; inputs: Record<string, unknown> },
  event: ToolResultEvent,
  evaluator: Evaluator,
  accumulated: Map<string, unknown[]> = new Map(),
): Promise<Record<string, unknown>> {
  const tool = toolEventValue(event);
  const eventScope = { ...scope, tool };
  const outputs: Record<string, unknown> = {};
  for (const row of events ?? []) {
    if (row.from !== "tool") continue;
    try {
      if (row.when !== undefined && !(await renderValue(row.when, eventScope, evaluator))) continue;
      const value = row.value === undefined ? tool.result : await renderValue(row.value, eventScope, evaluator);
      if (!row.accumulate) {
        outputs[row.emit] = value;
        continue;
      }
      const seen = accumulated.get(row.emit) ?? [];
      seen.push(value);
      accumulated.set(row.emit, seen);
      outputs[row.emit] = joinValues(row, seen);
    } catch (error) {
      throw new Error(`output '${row.emit}' could not be computed after the call to ${tool.name}: ${(error as Error).message}`);
    }
  }
  return outputs;
}

function toolEventValue(event: ToolResultEvent): ToolEventValue {
  return { name: event.tool.name, server: event.tool.server, arguments: event.arguments, result: parsedOrText(event.outcome.output), isError: event.outcome.isError };
}

function parsedOrText(output: string): unknown {
  try {
    return JSON.parse(output);
  } catch {
    return output;
  }
}
