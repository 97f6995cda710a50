import { z } from "zod";
import { templated } from "./call";
import { identifier } from "./interface";

const path = z.string().meta({ description: "A dot path or a template." });

export const exchangeCall = z.strictObject({
  match: path.optional().meta({ description: "Where the list of tool calls is in a reply, e.g. `choices.0.message.tool_calls` (the item is then `call`)." }),
  each: path.optional().meta({ description: "For streams: where the list of call fragments is in each event; fragments with the same `index` are merged, argument strings concatenated." }),
  index: z.string().optional().meta({ description: "For streams: the fragment's index, e.g. `{{ call.index }}`." }),
  when: z.string().optional().meta({ description: "A `return` expression over `call`: only items for which it is true are tool calls." }),
  id: z.string().meta({ description: "The call's id, e.g. `{{ call.id }}`." }),
  name: z.string().meta({ description: "The tool's name, e.g. `{{ call.function.name }}`." }),
  arguments: z.string().meta({ description: "The arguments: a JSON string, or an object (as Anthropic sends)." }),
});

export const continuity = z.strictObject({
  match: z.string().optional().meta({ description: "A `return` expression: chain only when true (default: always)." }),
  from: z.string().meta({ description: "The reply's id to chain from, e.g. `{{ response.id }}`." }),
  into: z.string().meta({ description: "The request field that carries it, e.g. previous_response_id." }),
});

export const transcript = z.strictObject({
  text: z.string().optional().meta({ description: "The model's text in a reply (for streams, in each event; the pieces are joined)." }),
  assistant: z.unknown().optional().meta({ description: "The assistant turn to resend before the results, over `response`, `text` and `toolCalls` (each `{id, name, arguments, input}`)." }),
});

export const usage = z.strictObject({
  input: z.string().optional().meta({ description: "The turn's input (prompt) tokens in a reply, e.g. `{{ response.usage.prompt_tokens }}`." }),
  output: z.string().optional().meta({ description: "The turn's output (completion) tokens in a reply." }),
});

export const prices = z.strictObject({
  inputPerMillion: z.number().nonnegative().meta({ description: "US dollars per million input (prompt) tokens." }),
  outputPerMillion: z.number().nonnegative().meta({ description: "US dollars per million output (completion) tokens." }),
});

export const adapterName = z.enum(["openai", "openai-compatible", "anthropic", "offline"]);

/**
 * api/toolExchange.yaml: how this model API expresses a tool call. Either the
 * declarative keys, layered over the node's last run call, or an `adapter`
 * onto a well-kept SDK provider. Both run through the same turn loop.
 */
export const toolExchangeManifest = z.strictObject({
  adapter: adapterName.optional().meta({ description: "Use an SDK adapter instead of the declarative keys: openai, openai-compatible, anthropic, or offline (the built-in deterministic model, no network)." }),
  tool: z.unknown().optional().meta({ description: "Wraps one tool — `{name, description, parameters}` as `tool` — in the vendor's shape." }),
  toolsInto: z.string().default("tools").meta({ description: "The request field for the list of tools." }),
  call: exchangeCall.optional().meta({ description: "How a tool call is found in a reply." }),
  result: z.unknown().optional().meta({ description: "Wraps one result — `{id, name, arguments, output, isError}` as `result` — in the vendor's shape." }),
  resultsInto: z.string().default("input").meta({ description: "The request list the assistant turn and the results are appended to, e.g. messages." }),
  resultsGroup: z.unknown().optional().meta({ description: "Wraps all of one turn's wrapped results (`results`) into one entry, for APIs that send them in one message (Anthropic)." }),
  choice: z.unknown().default("auto").meta({ description: "The tool-choice value sent while tools are offered." }),
  choiceInto: z.string().optional().meta({ description: "The request field for `choice`; none: no choice is sent." }),
  withheldChoice: z.unknown().optional().meta({ description: "The tool-choice value for a turn where no tool may be called after turns that offered tools (the last turn): the tools stay declared with this choice, for APIs that refuse tool calls in the history without tool definitions (Anthropic: `{type: none}`). Without it such a turn sends no tools." }),
  instructionsInto: z.string().optional().meta({ description: "The request field (a dot path) the wired connectors' `instructions` are appended to: the system prompt, e.g. `messages.0.content` or `system`." }),
  usage: usage.optional().meta({ description: "Where a reply reports its token usage (for the trace)." }),
  continuity: continuity.optional().meta({ description: "For APIs that chain turns by id instead of resending the conversation." }),
  transcript: transcript.optional().meta({ description: "For APIs that resend the whole conversation: where the text is and what the assistant turn looks like." }),
  prices: prices.optional().meta({ description: "What the model costs, so each model turn on the trace shows its cost: `{inputPerMillion, outputPerMillion}` in US dollars. Without it turns show tokens only." }),
  from: identifier.default("mcpService").meta({ description: "The consuming connector whose tools are offered." }),
  maxTurns: templated(z.number()).default(10).meta({ description: "How many model turns at most; 1 means one pass with no tool offered." }),
  stuckAfterRepeats: templated(z.number()).default(3).meta({ description: "The Nth identical call (same tool, same arguments) is not run; one more ends the node as stuck." }),
});
export type ToolExchangeManifest = z.infer<typeof toolExchangeManifest>;
