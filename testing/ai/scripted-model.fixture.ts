import type { Conversation, ModelProtocol, ModelTurn, ToolDefinition, ToolResultMessage } from "../../lib/ai/model";

/** One scripted turn: the text and the calls the "model" makes. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: unknown; id?: string }>;
}

/** What the scripted model was asked on each turn. */
export interface ScriptedRequest {
  tools: string[];
  /** Results handed back before this turn. */
  results: ToolResultMessage[];
}

/**
 * TEST DOUBLE: a model that plays a fixed script, turn by turn, and records
 * what it was offered and told. A turn may be a function of the request, to
 * react to results. When the script runs out it answers "done".
 */
export function scriptedModel(script: Array<ScriptedTurn | ((request: ScriptedRequest) => ScriptedTurn)>): ModelProtocol & { requests: ScriptedRequest[] } {
  const requests: ScriptedRequest[] = [];
  return {
    label: "scripted model (test double)",
    requests,
    async start() {
      let pending: ToolResultMessage[] = [];
      let index = 0;
      const conversation: Conversation = {
        async turn(tools: readonly ToolDefinition[]) {
          const request = { tools: tools.map((tool) => tool.name), results: pending };
          requests.push(request);
          pending = [];
          const step = script[index++];
          const turn = typeof step === "function" ? step(request) : (step ?? { text: "done" });
          return {
            text: turn.text ?? "",
            toolCalls: (turn.toolCalls ?? []).map((call, position) => ({
              id: call.id ?? `call_${index}_${position + 1}`,
              name: call.name,
              arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
              input: typeof call.arguments === "string" ? safeParse(call.arguments) : call.arguments,
            })),
            usage: { inputTokens: 10, outputTokens: 5 },
          } satisfies ModelTurn;
        },
        addResults(_turn, results) {
          pending = [...results];
        },
        restore() {
          // A replayed turn was played before: the script moves on past it, unasked.
          pending = [];
          index++;
        },
      };
      return conversation;
    },
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
