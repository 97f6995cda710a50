import type { ModelMessage } from "ai";
import type { Conversation, ConversationStart, ModelProtocol, ModelTurn, ToolCallRequest, ToolDefinition, ToolResultMessage } from "./model";

/**
 * THE BUILT-IN OFFLINE MODEL: deterministic, no network, no API key. It is
 * not a language model. It lets the demo workflow and the tests run
 * anywhere, and shows a real tool loop on the trace:
 * - it picks the offered tool whose name and description share the most
 *   words with the prompt (through search_tools / call_tool in discovery mode);
 * - it fills the arguments from the prompt: numbers in order for number
 *   parameters, enum values in the order the prompt names them, the whole
 *   prompt for a free-text parameter;
 * - after a result it answers with what the tool said (or that it failed);
 * - in a chat, a question about what was said before ("What did I ask
 *   first?") is answered from the thread's history, quoting the earlier
 *   turn it names (first, last) or the one sharing the most words with it;
 * - with `onText` (a chat turn, or someone follows the run) its answer streams word by word,
 *   `paceMs` apart, as a real model's would.
 */
export function offlineModel(options: OfflineModelOptions = {}): ModelProtocol {
  return { label: "offline model (built-in, deterministic)", start: async (input) => new OfflineConversation(input, options) };
}

export interface OfflineModelOptions {
  /** Receives the answer's text piece by piece. */
  onText?: (piece: string) => void;
  /** The pause between two streamed words (default 30 ms, or SWITCHBOARD_OFFLINE_STREAM_MS). */
  paceMs?: number;
}

class OfflineConversation implements Conversation {
  private readonly prompt: string;
  private readonly history: readonly ModelMessage[];
  private readonly results: ToolResultMessage[] = [];
  private turns = 0;

  constructor(input: ConversationStart, private readonly options: OfflineModelOptions) {
    this.prompt = String(Object.values(input.inputs).find((value) => typeof value === "string") ?? "");
    this.history = input.history ?? [];
  }

  async turn(tools: readonly ToolDefinition[], signal?: AbortSignal): Promise<ModelTurn> {
    const turn = this.answer(tools);
    if (turn.text && this.options.onText) await streamWords(turn.text, this.options.onText, this.options.paceMs ?? defaultPaceMs(), signal);
    return turn;
  }

  private answer(tools: readonly ToolDefinition[]): ModelTurn {
    this.turns++;
    const recalled = this.results.length === 0 ? recall(this.prompt, this.history) : undefined;
    if (recalled) return { text: recalled, toolCalls: [], usage: { inputTokens: Math.ceil(this.prompt.length / 4), outputTokens: Math.ceil(recalled.length / 4) } };
    const usage = { inputTokens: Math.ceil((this.prompt.length + JSON.stringify(tools).length) / 4), outputTokens: 20 };
    const last = this.results.at(-1);
    if (last && (last.isError || last.name !== "search_tools")) return { text: answerFrom(last), toolCalls: [], usage };
    if (tools.length === 0) {
      const text = last ? answerFrom(last) : `(offline model) No tool is wired to me, so I can only restate the task: ${this.prompt}`;
      return { text, toolCalls: [], usage };
    }
    const call = this.nextCall(tools, last);
    return call ? { text: "", toolCalls: [call], usage } : { text: `(offline model) None of my tools fits: ${this.prompt}`, toolCalls: [], usage };
  }

  private nextCall(tools: readonly ToolDefinition[], last: ToolResultMessage | undefined): ToolCallRequest | undefined {
    const id = `offline_${this.turns}`;
    const discovery = tools.some((tool) => tool.name === "search_tools") && tools.some((tool) => tool.name === "call_tool");
    if (discovery && !last) return request(id, "search_tools", { query: this.prompt, limit: 5 });
    if (discovery && last) {
      const found = safeParse(last.output) as Array<{ name: string; description: string; inputSchema: Record<string, unknown> }> | undefined;
      const best = Array.isArray(found) ? found[0] : undefined;
      return best ? request(id, "call_tool", { name: best.name, arguments: fillArguments(best.inputSchema, this.prompt) }) : undefined;
    }
    const best = bestTool(tools, this.prompt);
    return best ? request(id, best.name, fillArguments(best.parameters, this.prompt)) : undefined;
  }

  addResults(_turn: ModelTurn, results: readonly ToolResultMessage[]): void {
    this.results.push(...results);
  }

  restore(): void {
    this.turns++;
  }
}

function defaultPaceMs(): number {
  const configured = Number(process.env.SWITCHBOARD_OFFLINE_STREAM_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : 30;
}

/** The text word by word (each word with the space before it), `paceMs` apart; a cancel stops the pauses, not the text. */
async function streamWords(text: string, onText: (piece: string) => void, paceMs: number, signal?: AbortSignal): Promise<void> {
  const pieces = text.match(/\s*\S+/g) ?? [text];
  for (const [index, piece] of pieces.entries()) {
    if (index > 0 && paceMs > 0 && !signal?.aborted) await new Promise((resolve) => setTimeout(resolve, paceMs));
    onText(piece);
  }
}

const recallWords = /\b(earlier|before|first|last|previous|previously|remember|recall)\b/i;

/**
 * An answer from the thread's history when the prompt asks about it: a
 * question naming an earlier turn (first, last) or words of one. Undefined
 * when the prompt is no such question or there is no history.
 */
export function recall(prompt: string, history: readonly ModelMessage[]): string | undefined {
  if (!prompt.trim().endsWith("?") || !recallWords.test(prompt)) return undefined;
  const turns: Array<{ user: string; assistant: string }> = [];
  for (const message of history) {
    const text = typeof message.content === "string" ? message.content : "";
    if (message.role === "user") turns.push({ user: text, assistant: "" });
    else if (message.role === "assistant" && turns.length) turns[turns.length - 1].assistant = text;
  }
  if (turns.length === 0) return undefined;
  const wanted = new Set(words(prompt).map(stem));
  const shared = (turn: { user: string }) => new Set(words(turn.user).map(stem).filter((word) => wanted.has(word))).size;
  const byWords = [...turns].sort((a, b) => shared(b) - shared(a))[0];
  const chosen = /\bfirst\b/i.test(prompt) ? turns[0] : /\blast\b/i.test(prompt) ? turns[turns.length - 1] : byWords;
  const answered = chosen.assistant ? ` I answered: ${chosen.assistant}` : "";
  return `(offline model) Earlier you said: "${chosen.user}".${answered}`;
}

function request(id: string, name: string, input: Record<string, unknown>): ToolCallRequest {
  return { id, name, arguments: JSON.stringify(input), input };
}

function answerFrom(result: ToolResultMessage): string {
  if (result.isError) return `(offline model) The tool ${result.name} failed: ${result.output}`;
  return `(offline model) ${result.name} answered: ${result.output}`;
}

function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2);
}

/** The tool sharing the most words with the prompt, a word of its name counting three; ties go to the first offered. */
function bestTool(tools: readonly ToolDefinition[], prompt: string): ToolDefinition | undefined {
  const wanted = new Set(words(prompt).map(stem));
  const shared = (text: string) => new Set(words(text).map(stem).filter((word) => wanted.has(word))).size;
  let best: ToolDefinition | undefined;
  let bestScore = -1;
  for (const tool of tools) {
    const score = 3 * shared(tool.name) + shared(tool.description);
    if (score > bestScore) {
      best = tool;
      bestScore = score;
    }
  }
  return best;
}

function stem(word: string): string {
  return word.replace(/(ing|ed|es|s)$/, "");
}

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  default?: unknown;
}

/** Arguments for a schema, read off the prompt. */
export function fillArguments(schema: Record<string, unknown>, prompt: string): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const numbers = [...prompt.matchAll(/-?\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
  const lower = prompt.toLowerCase();
  const enumsUsed = new Set<string>();
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.enum) {
      const mentioned = property.enum
        .filter((value): value is string => typeof value === "string" && !enumsUsed.has(value))
        .map((value) => ({ value, at: mentionAt(lower, value.toLowerCase()) }))
        .filter((candidate) => candidate.at >= 0)
        .sort((a, b) => a.at - b.at)[0];
      if (mentioned) {
        args[name] = mentioned.value;
        enumsUsed.add(mentioned.value);
      }
    } else if ((property.type === "number" || property.type === "integer") && numbers.length) {
      args[name] = property.type === "integer" ? Math.round(numbers.shift() as number) : numbers.shift();
    } else if (property.type === "string" && required.has(name)) {
      args[name] = prompt;
    }
    if (args[name] === undefined && property.default !== undefined) args[name] = property.default;
  }
  return args;
}

/** Where the prompt names a value, allowing a plural ("miles" names "mile"). */
function mentionAt(text: string, value: string): number {
  const pattern = new RegExp(`\\b${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(s|es)?\\b`);
  return pattern.exec(text)?.index ?? -1;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
