import type { ModelMessage } from "ai";

/**
 * The one shape every model protocol takes for the agent loop: the
 * declarative toolExchange interpreter, the AI SDK adapters, the offline
 * model and the scripted test double all speak it, so the loop that counts
 * turns and runs tools is written once.
 */

/** A tool as the model sees it. `name` is already safe for every vendor (no dots). */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

/** One tool call the model asked for. */
export interface ToolCallRequest {
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
  /** The arguments parsed; undefined when they are not valid JSON. */
  input: unknown;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** What one model turn produced. */
export interface ModelTurn {
  text: string;
  toolCalls: ToolCallRequest[];
  usage?: TokenUsage;
  /** Why the model stopped (e.g. "stop", "tool-calls", "length"), when the protocol says. */
  finishReason?: string;
  /** The model that answered, when the protocol knows it (e.g. "gpt-4.1-mini"). */
  modelId?: string;
  /**
   * What the protocol needs to go on from this turn without asking again
   * (the raw reply, provider messages): kept in the run's journal as JSON,
   * handed back to `restore` on resume.
   */
  replay?: unknown;
}

/** The answer to one tool call, as it goes back to the model. */
export interface ToolResultMessage {
  id: string;
  name: string;
  arguments: string;
  /** The result as text (JSON for structured results). */
  output: string;
  isError: boolean;
}

export interface ConversationStart {
  /** The system prompt's addition: the wired connectors' instructions. */
  instructions: string;
  /** Run-scoped values the protocol may template over (config, inputs). */
  config: Record<string, unknown>;
  inputs: Record<string, unknown>;
  /**
   * The chat thread's earlier turns, oldest first, already cut to the
   * agent's window: user and assistant messages before the new prompt.
   * Absent outside a chat.
   */
  history?: readonly ModelMessage[];
}

/** One agent's conversation with its model, turn by turn. */
export interface Conversation {
  /** Asks for the next turn; an empty `tools` list means none is offered. */
  turn(tools: readonly ToolDefinition[], signal?: AbortSignal): Promise<ModelTurn>;
  /** Records the model's turn and the answers to its calls, before the next turn (awaited: a declarative protocol renders them in the sandbox). */
  addResults(turn: ModelTurn, results: readonly ToolResultMessage[]): void | Promise<void>;
  /**
   * Takes a turn recorded in the run's journal as if the model had just
   * answered it (a resumed run replays its turns without asking again), so
   * the conversation goes on exactly where it was. `tools` are those the
   * turn was offered.
   */
  restore?(turn: ModelTurn, tools: readonly ToolDefinition[]): void;
  /**
   * Rewrites the text of a tool result already recorded, for the turns to
   * come (a search_tools answer summarized once a tool was chosen). A
   * protocol that cannot rewrite its history leaves this out and keeps
   * sending the result whole.
   */
  replaceResult?(callId: string, output: string): void | Promise<void>;
}

/** A model protocol: starts conversations. */
export interface ModelProtocol {
  /** Shown on the trace and the node, e.g. "openai-chat (declarative)" or "offline model". */
  label: string;
  start(input: ConversationStart): Promise<Conversation>;
}

/** Parses a model's argument text; undefined when it is not JSON. */
export function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
