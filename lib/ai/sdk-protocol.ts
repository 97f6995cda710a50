import { dynamicTool, generateText, jsonSchema, type LanguageModel, type ModelMessage, streamText, type ToolSet, wrapLanguageModel } from "ai";
import { type Conversation, type ModelProtocol, type ModelTurn, parseArguments, type ToolCallRequest, type ToolDefinition, type ToolResultMessage } from "./model";

export interface SdkProtocolSetup {
  /** Shown on the trace, e.g. "anthropic (AI SDK adapter)". */
  label: string;
  model: LanguageModel;
  /** The node's configured system prompt; the connectors' instructions are appended to it. */
  systemPrompt?: string;
  temperature?: number;
  maxOutputTokens?: number;
  /** Stream each turn (streamText) instead of one reply (generateText). */
  stream?: boolean;
  /** Each model request's limit (default 120 s, as the declarative calls). */
  timeoutMs?: number;
  /** Retries of a failed request (the SDK retries 429 and 5xx with backoff); default 2. */
  maxRetries?: number;
  /** Receives the text of a streamed turn as it arrives. */
  onText?: (piece: string) => void;
}

/**
 * A model protocol onto an AI SDK provider (OpenAI, Anthropic, an
 * OpenAI-compatible server). Each turn is exactly one model step, and the
 * tools are declared without `execute`, so the SDK hands the calls back
 * instead of running them: the platform's loop counts turns and runs tools,
 * as it does for every protocol.
 *
 * Long loops stay linear: the conversation is kept as the provider's own
 * message list (what the SDK sends the model), and each turn hands the SDK
 * only the messages added since the last turn; a thin wrapper around the
 * model (ProviderPrompt) puts them after the ones kept. The SDK then
 * converts and checks only what is new instead of the whole conversation.
 */
export function sdkProtocol(setup: SdkProtocolSetup): ModelProtocol {
  return {
    label: setup.label,
    async start(input) {
      const prompt = promptOf(input.inputs);
      const instructions = [setup.systemPrompt ?? "", input.instructions].filter(Boolean).join("\n\n");
      return new SdkConversation(setup, instructions, [...(input.history ?? []), { role: "user", content: prompt }]);
    },
  };
}

type ProviderModel = ReturnType<typeof wrapLanguageModel>;
type ProviderMessage = Parameters<ProviderModel["doGenerate"]>[0]["prompt"][number];

/**
 * The conversation as the provider's message list, kept across turns. A
 * turn's request carries the new messages only (converted by the SDK); the
 * wrapped model puts them after the kept ones and sends the whole list.
 * A retried request (the SDK retries 429 and 5xx) puts them there again in
 * the same place, never twice.
 */
class ProviderPrompt {
  private readonly messages: ProviderMessage[] = [];
  /** Where the current turn's new messages start. */
  private turnStart = 0;

  beginTurn(): void {
    this.turnStart = this.messages.length;
  }

  /** The kept messages followed by this request's new ones (the request's own system message only on the first turn). */
  private assemble(added: readonly ProviderMessage[]): ProviderMessage[] {
    this.messages.length = this.turnStart;
    for (const message of added) if (this.turnStart === 0 || message.role !== "system") this.messages.push(message);
    return this.messages;
  }

  /** Rewrites the text of a tool result already kept; false when none has that id. Searches from the end: the result is recent. */
  replaceResult(callId: string, output: string): boolean {
    for (let index = this.messages.length - 1; index >= 0; index--) if (replaceToolResult(this.messages[index], callId, output)) return true;
    return false;
  }

  /** A failed turn leaves nothing behind: its new messages are sent again with the next one. */
  abandonTurn(): void {
    this.messages.length = this.turnStart;
  }

  wrap(model: LanguageModel): ProviderModel {
    if (typeof model === "string") throw new Error(`the AI SDK adapter needs a provider's model object, not the model id "${model}"`);
    return wrapLanguageModel({ model, middleware: { transformParams: async ({ params }) => ({ ...params, prompt: this.assemble(params.prompt) }) } });
  }
}

/** The agent's prompt: its `prompt` input, else its first text input. */
function promptOf(inputs: Record<string, unknown>): string {
  if (typeof inputs.prompt === "string") return inputs.prompt;
  const text = Object.values(inputs).find((value) => typeof value === "string");
  return typeof text === "string" ? text : JSON.stringify(inputs);
}

type ResponseMessages = Awaited<ReturnType<typeof generateText>>["responseMessages"];

class SdkConversation implements Conversation {
  /** The assistant messages the SDK built for each turn (they keep provider data such as reasoning signatures). */
  private readonly assistantOf = new WeakMap<ModelTurn, ModelMessage[]>();
  /** The tools offered on the latest turn that offered any. */
  private offeredBefore: readonly ToolDefinition[] = [];
  /** The SDK's tool set of the tools last declared, built again only when they change. */
  private declaredTools: { tools: readonly ToolDefinition[]; set: ToolSet } | null = null;
  private readonly prompt = new ProviderPrompt();
  private readonly model: ProviderModel;
  private first = true;

  constructor(
    private readonly setup: SdkProtocolSetup,
    private readonly instructions: string,
    /** The messages added since the last turn: only these go through the SDK's conversion. */
    private added: ModelMessage[],
  ) {
    this.model = this.prompt.wrap(setup.model);
  }

  async turn(tools: readonly ToolDefinition[], signal?: AbortSignal): Promise<ModelTurn> {
    const timeoutMs = this.setup.timeoutMs ?? 120_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    if (tools.length) this.offeredBefore = tools;
    // A turn without tools after turns with them still declares them, with tool choice "none": the model
    // can call nothing, and APIs that refuse tool calls in the history without tool definitions (Anthropic) accept it.
    const declared = tools.length ? tools : this.offeredBefore;
    const options = {
      model: this.model,
      instructions: this.first ? this.instructions || undefined : undefined,
      messages: this.added,
      tools: declared.length ? this.toolSetOf(declared) : undefined,
      toolChoice: tools.length ? ("auto" as const) : declared.length ? ("none" as const) : undefined,
      temperature: this.setup.temperature,
      maxOutputTokens: this.setup.maxOutputTokens,
      maxRetries: this.setup.maxRetries ?? 2,
      abortSignal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    };
    this.prompt.beginTurn();
    let step: Awaited<ReturnType<SdkConversation["streamed"]>>;
    try {
      step = this.setup.stream ? await this.streamed(options) : await generateText(options);
      // A stream cut by a cancel or the timeout ends quietly with what it had: that is no turn.
      if (timeout.aborted) throw new Error(`the model did not answer within ${timeoutMs} ms`);
      if (signal?.aborted) throw new Error("the model request was cancelled");
    } catch (error) {
      this.prompt.abandonTurn();
      if (timeout.aborted && !signal?.aborted) throw error instanceof Error && error.message.startsWith("the model did not answer") ? error : new Error(`the model did not answer within ${timeoutMs} ms`, { cause: error });
      if (error instanceof Error && error.message === "the model request was cancelled") throw error;
      throw new Error(failureMessage(error), { cause: error });
    }
    this.first = false;
    this.added = [];
    const assistant = assistantMessages(step.responseMessages);
    const turn: ModelTurn = {
      text: step.text,
      toolCalls: step.toolCalls.map((call) => toolCallOf(call)),
      usage: { inputTokens: step.usage.inputTokens, outputTokens: step.usage.outputTokens },
      ...(step.finishReason ? { finishReason: String(step.finishReason) } : {}),
      ...(typeof this.setup.model === "object" && this.setup.model && "modelId" in this.setup.model ? { modelId: String(this.setup.model.modelId) } : {}),
      replay: { assistant },
    };
    this.assistantOf.set(turn, assistant);
    return turn;
  }

  /**
   * A turn recorded in the journal, taken as if the model had just answered.
   * Nothing is sent: `first` and the pending messages stay as they are, so
   * the next live turn sends the instructions (if none was sent yet) and
   * every message since the last live turn, the replayed ones included.
   */
  restore(turn: ModelTurn, tools: readonly ToolDefinition[]): void {
    if (tools.length) this.offeredBefore = tools;
    const assistant = (turn.replay as { assistant?: ModelMessage[] } | undefined)?.assistant;
    if (assistant) this.assistantOf.set(turn, assistant);
  }

  replaceResult(callId: string, output: string): void {
    for (const message of this.added) if (replaceToolResult(message, callId, output)) return;
    this.prompt.replaceResult(callId, output);
  }

  private toolSetOf(tools: readonly ToolDefinition[]): ToolSet {
    if (this.declaredTools?.tools !== tools) this.declaredTools = { tools, set: toolSet(tools) };
    return this.declaredTools.set;
  }

  /** One streamed step, read to its end; an error part fails the turn as generateText would. */
  private async streamed(options: Parameters<typeof streamText>[0]) {
    let failure: unknown;
    const result = streamText({ ...options, onError: ({ error }) => void (failure ??= error) });
    for await (const part of result.fullStream) {
      if (part.type === "error") failure ??= part.error;
      else if (part.type === "text-delta") this.setup.onText?.(part.text);
    }
    if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
    const [text, toolCalls, usage, responseMessages, finishReason] = await Promise.all([result.text, result.toolCalls, result.usage, result.responseMessages, result.finishReason]);
    return { text, toolCalls, usage, responseMessages, finishReason };
  }

  addResults(turn: ModelTurn, results: readonly ToolResultMessage[]): void {
    this.added.push(...(this.assistantOf.get(turn) ?? [assistantMessageOf(turn)]));
    if (results.length === 0) return;
    this.added.push({
      role: "tool",
      content: results.map((result) => ({
        type: "tool-result" as const,
        toolCallId: result.id,
        toolName: result.name,
        output: result.isError ? { type: "error-text" as const, value: result.output } : { type: "text" as const, value: result.output },
      })),
    });
  }
}

/** Rewrites a tool result's text in a tool message (the SDK's or the provider's: both keep `output` as `{ type, value }`). */
function replaceToolResult(message: { role: string; content: unknown }, callId: string, output: string): boolean {
  if (message.role !== "tool" || !Array.isArray(message.content)) return false;
  for (const part of message.content as Array<{ type?: string; toolCallId?: string; output?: { type: string; value: unknown } }>) {
    if (part.type !== "tool-result" || part.toolCallId !== callId || !part.output) continue;
    part.output = { type: part.output.type === "error-text" ? "error-text" : "text", value: output };
    return true;
  }
  return false;
}

/** The tools as the SDK declares them to the model, with no `execute`: the SDK returns the calls. */
function toolSet(tools: readonly ToolDefinition[]): ToolSet {
  return Object.fromEntries(tools.map((tool) => [tool.name, dynamicTool({ description: tool.description, inputSchema: jsonSchema(tool.parameters as Parameters<typeof jsonSchema>[0]) })]));
}

function toolCallOf(call: { toolCallId: string; toolName: string; input: unknown; invalid?: boolean }): ToolCallRequest {
  // An invalid call (arguments that are not JSON) carries the model's raw text as its input.
  if (typeof call.input === "string" && call.invalid) return { id: call.toolCallId, name: call.toolName, arguments: call.input, input: parseArguments(call.input) };
  return { id: call.toolCallId, name: call.toolName, arguments: JSON.stringify(call.input ?? {}), input: call.input ?? {} };
}

/** Only the assistant's own message: the SDK may add a tool message for calls it found invalid, which the platform answers itself. */
function assistantMessages(messages: ResponseMessages): ModelMessage[] {
  return messages.filter((message) => message.role === "assistant");
}

function assistantMessageOf(turn: ModelTurn): ModelMessage {
  return {
    role: "assistant",
    content: [
      ...(turn.text ? [{ type: "text" as const, text: turn.text }] : []),
      ...turn.toolCalls.map((call) => ({ type: "tool-call" as const, toolCallId: call.id, toolName: call.name, input: call.input ?? {} })),
    ],
  };
}

/**
 * What went wrong, for the node's status: the SDK's message and, when the
 * server answered something other than a JSON error (an HTML error page, a
 * proxy's text), the start of that body. A retried failure names its
 * last error.
 */
function failureMessage(error: unknown): string {
  const outer = error as { message?: string; lastError?: unknown; name?: string };
  const last = (outer.lastError ?? error) as { message?: string; statusCode?: number; responseBody?: string };
  const status = typeof last.statusCode === "number" ? `the model API answered ${last.statusCode}` : "the model request failed";
  const message = (last.message ?? outer.message ?? "").trim();
  const body = last.responseBody?.replace(/\s+/g, " ").trim().slice(0, 300) ?? "";
  // A JSON error body is what the SDK already read its message from; other bodies say what the message cannot.
  const unread = body && !/^[[{]/.test(body) && !message.includes(body) ? body : "";
  const reason = [message, unread].filter(Boolean).join(" — ");
  return `${status}: ${reason || outer.name || "no reason given"}`;
}
