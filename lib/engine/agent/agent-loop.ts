import type { Conversation, ModelTurn, TokenUsage, ToolCallRequest, ToolDefinition, ToolResultMessage } from "../../ai";
import { type AgentTool, modelToolNames, type ToolOutcome } from "../../tools";
import type { NodeStatus } from "../../trace";
import { callToolDefinition, callToolName, discoveryThresholdTokens, estimateTokens, searchSummary, searchToolsDefinition, searchToolsName } from "./discovery";
import { RepeatGuard } from "./repeat-guard";
import { RunInterruption } from "../journal/step-recorder";

/** Ranks tools for search_tools: the best `limit` for a job, best first. */
export type ToolRanker = (query: string, limit: number) => AgentTool[];

/** A call that no tool answered (refused, unknown, unparsable, or the platform's own search): the platform writes its trace row. */
export interface PlatformCall {
  callId: string;
  tool: string;
  arguments: unknown;
  output: string;
  isError: boolean;
  startedAt: string;
  durationMs: number;
  usage?: TokenUsage;
  /** The turn (1, 2, …) and the call's place in it: its journal key. */
  turn: number;
  callIndex: number;
}

/** A call a tool answered (through call_tool: the tool actually called), as it answered, before any note of the platform's. */
export interface ToolResultEvent {
  tool: AgentTool;
  arguments: unknown;
  outcome: ToolOutcome;
}

export interface AgentLoopOptions {
  conversation: Conversation;
  tools: readonly AgentTool[];
  maxTurns: number;
  stuckAfterRepeats: number;
  nodeRunId: string;
  callerNodeId: string;
  /** Ranks tools for search_tools; required when discovery may switch on. */
  rank?: ToolRanker;
  /** Defaults to about 2,000 tokens. */
  discoveryThreshold?: number;
  recordPlatformCall(call: PlatformCall): void | Promise<void>;
  /**
   * After each call a tool answered (never one the platform refused or
   * answered itself), awaited before the loop goes on. A throw ends the
   * loop as failed, with the error's message.
   */
  onToolResult?(event: ToolResultEvent): void | Promise<void>;
  signal?: AbortSignal;
}

export interface AgentLoopResult {
  status: Exclude<NodeStatus, "running">;
  text: string;
  turns: number;
  toolCalls: number;
  usage: TokenUsage;
  /** Whether the agent worked through search_tools / call_tool. */
  discovery: boolean;
  error?: string;
}

/** The most tool calls one model turn may have run; the rest are answered "not run". */
export const maxCallsPerTurn = 20;

type Route = { kind: "tool"; tool: AgentTool } | { kind: "search" } | { kind: "call-tool" };

/**
 * The agent's turn loop. The platform counts the turns and runs the tools:
 * at most `maxTurns` model turns, and on the last one no tool is offered, so
 * the model answers (maxTurns 1 is one pass without tools). Each call goes
 * past the repeat guard first; the first repeat is refused with a reason the
 * model can read, the next ends the node as stuck. When the tool
 * definitions are large the model gets search_tools and call_tool instead,
 * and that list never changes during the run.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const names = modelToolNames(options.tools.map((tool) => tool.name));
  const byName = new Map(options.tools.map((tool, index) => [names[index], tool]));
  const direct: ToolDefinition[] = options.tools.map((tool, index) => ({ name: names[index], description: tool.description, parameters: tool.inputSchema }));
  const discovery = options.tools.length > 0 && estimateTokens(direct) > (options.discoveryThreshold ?? discoveryThresholdTokens);
  const offered = discovery ? [searchToolsDefinition, callToolDefinition] : direct;
  const routes = new Map<string, Route>(discovery ? [[searchToolsName, { kind: "search" }], [callToolName, { kind: "call-tool" }]] : [...byName].map(([name, tool]) => [name, { kind: "tool", tool }]));
  const guard = new RepeatGuard(options.stuckAfterRepeats);
  const usage: TokenUsage = {};
  const result = (status: AgentLoopResult["status"], text: string, turns: number, error?: string): AgentLoopResult => ({ status, text, turns, toolCalls, usage, discovery, error });
  let toolCalls = 0;
  let wantedMore = false;
  // search_tools answers still whole in the history, by call id: what they found.
  const searches = new Map<string, Array<{ name: string; server: string }>>();

  for (let turn = 1; turn <= options.maxTurns; turn++) {
    if (options.signal?.aborted) return result("cancelled", "", turn - 1, "the run was cancelled");
    const lastTurn = turn === options.maxTurns;
    let reply: ModelTurn;
    try {
      reply = await options.conversation.turn(lastTurn ? [] : offered, options.signal);
    } catch (error) {
      // The run stops here unfinished (a call waits for a person, the journal is gone): no failure of this node.
      if (error instanceof RunInterruption) throw error;
      if (options.signal?.aborted) return result("cancelled", "", turn, "the run was cancelled");
      return result("failed", "", turn, (error as Error).message);
    }
    addUsage(usage, reply.usage);
    if (lastTurn || reply.toolCalls.length === 0) {
      const status = lastTurn && (wantedMore || reply.toolCalls.length > 0) ? "max_turns" : "completed";
      return result(status, reply.text, turn);
    }
    wantedMore = true;
    const answers: ToolResultMessage[] = [];
    const compact = new Map<string, string>();
    for (const [position, call] of reply.toolCalls.entries()) {
      toolCalls++;
      if (position >= maxCallsPerTurn) {
        // One reply asking for hundreds of calls would run them all; the rest are answered, not run.
        answers.push(await platformAnswer(call, options, reply.usage, { output: `Not run: at most ${maxCallsPerTurn} tool calls are run per turn. Ask for the rest in your next turn.`, isError: true }, { turn, callIndex: position }));
        continue;
      }
      const answer = await answerCall(call, { options, routes, byName, guard, usage: reply.usage, place: { turn, callIndex: position } });
      answers.push(answer.message);
      if (answer.found) searches.set(call.id, answer.found);
      if (answer.chosen) for (const [searchId, found] of searches) if (found.some((tool) => tool.name === answer.chosen)) compact.set(searchId, searchSummary(found.length, answer.chosen));
      if (answer.answered) {
        const failure = await afterToolResult(options, answer.answered);
        if (failure) return result("failed", "", turn, failure);
      }
      if (answer.stop) {
        await options.conversation.addResults(reply, answers);
        return result("stuck", reply.text, turn, answer.message.output);
      }
    }
    await options.conversation.addResults(reply, answers);
    // Once a found tool was chosen, the search's schemas leave the history (the offered tools stay the same).
    for (const [searchId, summary] of compact) {
      await options.conversation.replaceResult?.(searchId, summary);
      searches.delete(searchId);
    }
  }
  return result("max_turns", "", options.maxTurns);
}

interface CallState {
  options: AgentLoopOptions;
  routes: Map<string, Route>;
  byName: Map<string, AgentTool>;
  guard: RepeatGuard;
  usage?: TokenUsage;
  /** The call's turn and place in it. */
  place: CallPlace;
}

interface CallPlace {
  turn: number;
  callIndex: number;
}

/** Runs the onToolResult hook; its error's message when it threw. */
async function afterToolResult(options: AgentLoopOptions, event: ToolResultEvent): Promise<string | null> {
  try {
    await options.onToolResult?.(event);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

interface CallAnswer {
  message: ToolResultMessage;
  stop: boolean;
  /** Set when a tool answered the call. */
  answered?: ToolResultEvent;
  /** A search's answer: the tools it found, as the model knows them. */
  found?: Array<{ name: string; server: string }>;
  /** A call_tool's tool, as the model named it. */
  chosen?: string;
}

async function answerCall(call: ToolCallRequest, state: CallState): Promise<CallAnswer> {
  const { options, guard } = state;
  const startedAt = new Date();
  const reply = (outcome: ToolOutcome, stop = false) => ({ message: { id: call.id, name: call.name, arguments: call.arguments, output: outcome.output, isError: outcome.isError }, stop });
  const platform = async (outcome: ToolOutcome, stop = false) => ({ message: await platformAnswer(call, options, state.usage, outcome, state.place, startedAt), stop });
  const route = state.routes.get(call.name);
  if (!route) return platform({ output: `There is no tool named '${call.name}'. The tools you can call are: ${[...state.routes.keys()].join(", ")}.`, isError: true });
  if (call.input === undefined || call.input === null || typeof call.input !== "object" || Array.isArray(call.input)) {
    return platform({ output: `The arguments for ${call.name} are not a JSON object: ${call.arguments.slice(0, 200)}`, isError: true });
  }
  // Through call_tool, the repeat guard looks at the tool actually called.
  let tool: AgentTool | undefined;
  let args: unknown = call.input;
  if (route.kind === "call-tool") {
    const input = call.input as { name?: unknown; arguments?: unknown };
    tool = typeof input.name === "string" ? state.byName.get(input.name) : undefined;
    if (!tool) return platform({ output: `No tool is called '${String(input.name)}'. Use search_tools to find one, then pass its exact name.`, isError: true });
    args = input.arguments ?? {};
  } else if (route.kind === "tool") {
    tool = route.tool;
  }
  const guardName = tool ? `${tool.server}/${tool.name}` : call.name;
  const verdict = guard.before(guardName, args);
  if (verdict.action !== "run") return platform({ output: verdict.message, isError: true }, verdict.action === "stop");
  if (route.kind === "search") {
    const input = call.input as { query?: unknown; limit?: unknown };
    const found = (options.rank ?? (() => []))(String(input.query ?? ""), clampLimit(input.limit));
    const names = new Map([...state.byName].map(([name, candidate]) => [candidate, name]));
    const listed = found.map((candidate) => ({ name: names.get(candidate) ?? candidate.name, server: candidate.server, description: candidate.description, inputSchema: candidate.inputSchema }));
    const output = JSON.stringify(listed);
    guard.after(guardName, args, output);
    return { ...(await platform({ output, isError: false })), found: listed.map(({ name, server }) => ({ name, server })) };
  }
  const outcome = await (tool as AgentTool).call(args, { callId: call.id, nodeRunId: options.nodeRunId, callerNodeId: options.callerNodeId, usage: state.usage, signal: options.signal, ...state.place });
  const answered = { tool: tool as AgentTool, arguments: args, outcome };
  const chosen = route.kind === "call-tool" ? String((call.input as { name?: unknown }).name) : undefined;
  const warning = guard.after(guardName, args, outcome.output);
  if (warning === "STOP") return { ...reply({ ...outcome, output: `${outcome.output}\n\nThis result has come back unchanged too often; the agent stops here as stuck.` }, true), answered, chosen };
  return { ...reply(warning ? { ...outcome, output: `${outcome.output}\n\n${warning}` } : outcome), answered, chosen };
}

/** An answer the platform gives itself (no tool ran): its trace row is written here, one per call. */
async function platformAnswer(call: ToolCallRequest, options: AgentLoopOptions, usage: TokenUsage | undefined, outcome: ToolOutcome, place: CallPlace, startedAt = new Date()): Promise<ToolResultMessage> {
  await options.recordPlatformCall({ callId: call.id, tool: call.name, arguments: call.input ?? call.arguments, output: outcome.output, isError: outcome.isError, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), usage, ...place });
  return { id: call.id, name: call.name, arguments: call.arguments, output: outcome.output, isError: outcome.isError };
}

/** Tools a search lists unless the model asks for more: each one listed costs its whole schema on the next turn. */
const defaultSearchLimit = 3;

function clampLimit(limit: unknown): number {
  const value = Number(limit);
  return Number.isInteger(value) && value >= 1 ? Math.min(value, 10) : defaultSearchLimit;
}

function addUsage(total: TokenUsage, turn: TokenUsage | undefined): void {
  if (turn?.inputTokens !== undefined) total.inputTokens = (total.inputTokens ?? 0) + turn.inputTokens;
  if (turn?.outputTokens !== undefined) total.outputTokens = (total.outputTokens ?? 0) + turn.outputTokens;
}
