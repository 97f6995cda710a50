import type { CaseMessage, CaseModelRequest } from "./test-case";

/** One earlier turn of the conversation: what the model answered, then the results it was handed. */
export interface HistoryTurn {
  text: string;
  toolCalls: Array<{ name: string; arguments: unknown }>;
  results: Array<{ name: string; isError: boolean }>;
}

/**
 * What an agent asked its model on a turn, in the shape a case compares:
 * its model and system prompt (config `model`, `systemPrompt`), the wired
 * connectors' instructions, the messages new since the turn before (on the
 * first turn its inputs; after, the model's previous answer and the results
 * handed back) and the tools offered. A conversation only grows, and each
 * earlier part was matched on its own turn, so the new part is all that is
 * compared: a case stays linear in the length of the run. The pin builds it
 * from the recorded run, the cassette from the run replaying it, so both
 * sides are made by one function.
 *
 * Results are compared by tool name and error flag: their content is the
 * cassette's own (or a live tool's, which the tool-call steps compare).
 */
export function caseModelRequest(parts: {
  config: Record<string, unknown>;
  instructions: string;
  inputs: Record<string, unknown>;
  /** The turn before this one; null on the first. */
  previous: HistoryTurn | null;
  tools: ReadonlyArray<{ name: string; description?: string; parameters?: unknown }>;
}): CaseModelRequest {
  const messages: CaseMessage[] = [];
  if (!parts.previous) messages.push({ role: "user", content: parts.inputs });
  else {
    messages.push({ role: "assistant", text: parts.previous.text, toolCalls: parts.previous.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })) });
    for (const result of parts.previous.results) messages.push({ role: "tool", name: result.name, isError: result.isError });
  }
  return {
    model: typeof parts.config.model === "string" && parts.config.model !== "" ? parts.config.model : null,
    system: typeof parts.config.systemPrompt === "string" ? parts.config.systemPrompt : "",
    instructions: parts.instructions,
    messages,
    tools: parts.tools.map((tool) => ({ name: tool.name, description: tool.description ?? "", parameters: tool.parameters ?? {} })),
  };
}
