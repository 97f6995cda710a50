import { type RunManifest, type ToolExchangeManifest, streamingTransports } from "../manifest";
import { renderValue } from "../sandbox";
import { type CallContext, executeCall, runCalls } from "../calls";
import { appendPath, getPath, setPath } from "./dot-path";
import { type Conversation, type ModelProtocol, type ModelTurn, parseArguments, type TokenUsage, type ToolCallRequest, type ToolDefinition, type ToolResultMessage } from "./model";

export interface DeclarativeSetup {
  /** The node's api/run.yaml; the last call is the model request the loop repeats. */
  run: RunManifest;
  exchange: ToolExchangeManifest;
  context: CallContext;
}

/**
 * The interpreter of api/toolExchange.yaml: speaks any model API described
 * by the declarative keys, layered over the node's last run call. The
 * earlier run calls are made once, at the start; the last call's body is
 * rendered once and then grows turn by turn (never re-rendered, so text from
 * models and tools is never read as a template).
 */
export function declarativeProtocol(setup: DeclarativeSetup): ModelProtocol {
  return {
    label: "declarative toolExchange",
    async start(input) {
      // A chat turn's earlier messages (cut to the window), for a manifest that sends them: `{{ history }}`.
      const scope = { config: input.config, inputs: input.inputs, user: null, history: input.history ?? [] };
      const earlier = await runCalls(setup.run.slice(0, -1), scope, setup.context);
      const callScope = { ...scope, calls: earlier.calls };
      const last = setup.run[setup.run.length - 1];
      // `transcript` is the conversation so far, empty when the body is rendered: the turns that follow append to resultsInto.
      const body = structuredClone(await renderValue(last.body ?? {}, { ...callScope, transcript: [] }, setup.context.evaluator)) as Record<string, unknown>;
      const into = setup.exchange.instructionsInto;
      if (input.instructions && into) {
        const current = getPath(body, into);
        setPath(body, into, [typeof current === "string" ? current : "", input.instructions].filter(Boolean).join("\n\n"));
      }
      return new DeclarativeConversation(setup, callScope, body);
    },
  };
}

interface Fragment {
  id: string;
  name: string;
  arguments: string;
}

class DeclarativeConversation implements Conversation {
  private lastResponse: unknown = null;
  /** Each tool result as recorded and as its rendered JSON, to find it again in the history (replaceResult). */
  private readonly recorded = new Map<string, { result: ToolResultMessage; text: string }>();
  /** The tools offered on the latest turn that offered any. */
  private offeredBefore: readonly ToolDefinition[] = [];

  constructor(
    private readonly setup: DeclarativeSetup,
    private readonly scope: Record<string, unknown>,
    private readonly body: Record<string, unknown>,
  ) {}

  private render(value: unknown, scope: Record<string, unknown>): Promise<unknown> {
    return renderValue(value, { config: this.scope.config, inputs: this.scope.inputs, ...scope }, this.setup.context.evaluator);
  }

  async turn(tools: readonly ToolDefinition[], signal?: AbortSignal): Promise<ModelTurn> {
    const { exchange, run, context } = this.setup;
    const request = structuredClone(this.body);
    if (tools.length > 0) {
      this.offeredBefore = tools;
      setPath(request, exchange.toolsInto, await Promise.all(tools.map((tool) => this.render(exchange.tool, { tool }))));
      if (exchange.choiceInto) setPath(request, exchange.choiceInto, await this.render(exchange.choice, {}));
    } else if (exchange.withheldChoice !== undefined && exchange.choiceInto && this.offeredBefore.length > 0) {
      // No tool may be called, but the history holds tool calls: keep the tools declared, with a choice that allows none.
      setPath(request, exchange.toolsInto, await Promise.all(this.offeredBefore.map((tool) => this.render(exchange.tool, { tool }))));
      setPath(request, exchange.choiceInto, await this.render(exchange.withheldChoice, {}));
    }
    const last = run[run.length - 1];
    const reply = await executeCall(last, this.scope, { ...context, signal: signal ?? context.signal }, { value: request });
    this.lastResponse = reply.response;
    const turn = streamingTransports.has(last.transport) ? await this.readEvents(reply.response as unknown[]) : await this.readReply(reply.response);
    return { ...turn, replay: { response: reply.response } };
  }

  restore(turn: ModelTurn, tools: readonly ToolDefinition[]): void {
    if (tools.length > 0) this.offeredBefore = tools;
    this.lastResponse = (turn.replay as { response?: unknown } | undefined)?.response ?? null;
  }

  private async readReply(response: unknown): Promise<ModelTurn> {
    const { call, transcript, usage } = this.setup.exchange;
    const items = call?.match ? getPath(response, call.match) : undefined;
    const toolCalls: ToolCallRequest[] = [];
    for (const item of Array.isArray(items) ? items : []) {
      const scope = { call: item, response };
      if (call?.when !== undefined && !(await this.render(call.when, scope))) continue;
      toolCalls.push(toolCall(await this.render(call?.id, scope), await this.render(call?.name, scope), await this.render(call?.arguments, scope), toolCalls.length));
    }
    const text = transcript?.text === undefined ? "" : textOf(await this.render(transcript.text, { response }));
    return { text, toolCalls, usage: await this.readUsage(usage, [response]) };
  }

  private async readEvents(events: unknown[]): Promise<ModelTurn> {
    const { call, transcript, usage } = this.setup.exchange;
    // The call being assembled at each index, and every call in the order it began.
    const atIndex = new Map<string, Fragment>();
    const fragments: Fragment[] = [];
    let text = "";
    for (const event of events) {
      if (transcript?.text !== undefined) text += textOf(await this.render(transcript.text, { response: event }));
      if (!call) continue;
      const items = call.each ? getPath(event, call.each) : [event];
      for (const item of Array.isArray(items) ? items : []) {
        const scope = { call: item, response: event };
        if (call.when !== undefined && !(await this.render(call.when, scope))) continue;
        const index = String(call.index === undefined ? 0 : ((await this.render(call.index, scope)) ?? 0));
        const id = textOf(await this.render(call.id, scope));
        let fragment = atIndex.get(index);
        // A different id at an index already taken is a new call: some servers (Ollama) number every call 0.
        if (!fragment || (id && fragment.id && id !== fragment.id)) {
          fragment = { id: "", name: "", arguments: "" };
          atIndex.set(index, fragment);
          fragments.push(fragment);
        }
        fragment.id ||= id;
        fragment.name ||= textOf(await this.render(call.name, scope));
        const piece = await this.render(call.arguments, scope);
        fragment.arguments += typeof piece === "string" ? piece : piece === undefined || piece === null ? "" : JSON.stringify(piece);
      }
    }
    const toolCalls = fragments.filter((fragment) => fragment.name).map((fragment, index) => toolCall(fragment.id, fragment.name, fragment.arguments, index));
    return { text, toolCalls, usage: await this.readUsage(usage, events) };
  }

  private async readUsage(usage: ToolExchangeManifest["usage"], responses: unknown[]): Promise<TokenUsage | undefined> {
    if (!usage) return undefined;
    const result: TokenUsage = {};
    for (const response of responses) {
      const input = usage.input === undefined ? undefined : Number(await this.render(usage.input, { response }));
      const output = usage.output === undefined ? undefined : Number(await this.render(usage.output, { response }));
      if (Number.isFinite(input)) result.inputTokens = input;
      if (Number.isFinite(output)) result.outputTokens = output;
    }
    return result.inputTokens === undefined && result.outputTokens === undefined ? undefined : result;
  }

  async addResults(turn: ModelTurn, results: readonly ToolResultMessage[]): Promise<void> {
    const { exchange } = this.setup;
    const into = exchange.resultsInto;
    if (exchange.continuity) {
      const chain = exchange.continuity.match === undefined || (await this.render(exchange.continuity.match, { response: this.lastResponse }));
      if (chain) {
        setPath(this.body, exchange.continuity.into, await this.render(exchange.continuity.from, { response: this.lastResponse }));
        setPath(this.body, into, []); // the server holds the conversation: send only what is new
      }
    } else if (exchange.transcript?.assistant !== undefined) {
      appendPath(this.body, into, [await this.render(exchange.transcript.assistant, { response: this.lastResponse, text: turn.text, toolCalls: turn.toolCalls })]);
    }
    const wrapped = await Promise.all(results.map((result) => this.render(exchange.result, { result })));
    for (const [index, result] of results.entries()) this.recorded.set(result.id, { result, text: JSON.stringify(wrapped[index]) });
    appendPath(this.body, into, exchange.resultsGroup === undefined ? wrapped : [await this.render(exchange.resultsGroup, { results: wrapped })]);
  }

  /** Renders the result again with the new text and puts it where the old one is in the request body's history. */
  async replaceResult(callId: string, output: string): Promise<void> {
    const recorded = this.recorded.get(callId);
    if (!recorded) return;
    const fresh = await this.render(this.setup.exchange.result, { result: { ...recorded.result, output } });
    if (replaceEqual(getPath(this.body, this.setup.exchange.resultsInto), recorded.text, fresh)) this.recorded.set(callId, { result: { ...recorded.result, output }, text: JSON.stringify(fresh) });
  }
}

/** Replaces, inside a JSON value, the last element whose JSON is `text` with `fresh`; whether one was found. */
function replaceEqual(container: unknown, text: string, fresh: unknown): boolean {
  if (container === null || typeof container !== "object") return false;
  const entries = Array.isArray(container) ? [...container.keys()].reverse() : Object.keys(container);
  for (const key of entries) {
    const value = (container as Record<string | number, unknown>)[key];
    if (value === null || typeof value !== "object") continue;
    if (JSON.stringify(value) === text) {
      (container as Record<string | number, unknown>)[key] = fresh;
      return true;
    }
    if (replaceEqual(value, text, fresh)) return true;
  }
  return false;
}

function toolCall(id: unknown, name: unknown, rawArguments: unknown, position: number): ToolCallRequest {
  const text = typeof rawArguments === "string" ? rawArguments : rawArguments === undefined || rawArguments === null ? "" : JSON.stringify(rawArguments);
  return { id: textOf(id) || `call_${position + 1}`, name: textOf(name), arguments: text, input: parseArguments(text) };
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
}
