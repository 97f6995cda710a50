import { randomUUID } from "node:crypto";
import type { Conversation, ModelProtocol, ModelTurn, ToolDefinition, ToolResultMessage } from "../ai";
import type { AgentToolsContext, EngineEnvironment, ModelRequest } from "../engine";
import { turnKey } from "../run-model";
import type { AgentTool, CallMeta, ToolOutcome } from "../tools";
import { caseModelRequest, type HistoryTurn } from "./model-request";
import { jsonEqual } from "../trace";
import { brief, combineScores, type Score, type Scorer, scoreAll } from "./scorers";
import type { CassetteCall, CassetteTurn, TestCase } from "./test-case";

/** What a test run replays, stored with the run (a journal entry beside it) so whichever worker takes the run finds it. */
export interface StoredCassette {
  caseName: string;
  nodes: TestCase["nodes"];
  assertions: Pick<TestCase["assertions"], "toolCalls" | "modelRequests">;
  /** Ask the real model instead of the cassette (`--live-model`); make calls the cassette lacks for real (`--live-tools`). */
  live: { model: boolean; tools: boolean };
}

/** The journal key a test run's cassette is stored under (written with the run, never replayed as a step). */
export const cassetteStepKey = "test/cassette";

/** Marks what the cassette refused, in a node's error or a call's: the verdict finds them by it. */
export const cassetteMark = "[cassette]";

/**
 * The environment of a test run: each agent's model answers from the
 * cassette when it is asked what the recorded run asked (see matchTurn),
 * and each tool call is answered from the cassette when it is the
 * recorded call (same place, tool and arguments, as the case's assertions
 * compare them); its trace row is written as the tool's server would. A
 * turn asked differently fails its node, naming the step and what
 * differs; a call the cassette lacks is answered as an error naming its
 * arguments (made for real with live tools).
 *
 * @example runWorkflow({ ..., env: cassetteEnvironment(await runEnvironment(options, workflowId), stored) })
 */
export function cassetteEnvironment(env: EngineEnvironment, stored: StoredCassette): EngineEnvironment {
  const turns = new Map<string, CassetteTurn>();
  const calls = new Map<string, CassetteCall>();
  for (const node of stored.nodes) {
    for (const step of node.steps) {
      if (step.kind === "model-turn") turns.set(step.key, step);
      else calls.set(step.key, step);
    }
  }
  const argumentScorers = new Map(stored.assertions.toolCalls.map((entry) => [entry.key, entry.arguments]));
  // Each recorded call once, by what it asked: a call waiting for approval is looked up, not compared with every call.
  // Built when a call first waits (most replays have none).
  let recordedCalls: Set<string> | null = null;
  return {
    ...env,
    // A call the recorded run made was let through then; without live tools no call reaches anything, so none waits for a person.
    approveInline: async (request) => {
      const approved = { action: "approve" as const, by: "test case", at: new Date().toISOString() };
      if (!stored.live.tools) return approved;
      recordedCalls ??= new Set([...calls.values()].map((call) => callSignature(call.server, call.tool, call.arguments)));
      return recordedCalls.has(callSignature(request.server, request.tool, request.arguments)) ? approved : env.approveInline?.(request);
    },
    models: stored.live.model ? env.models : (request) => cassetteModel(request, turns, (key) => requestScorers(stored.assertions.modelRequests, key)),
    agentTools: (tools, context) => {
      const inner = env.agentTools ? env.agentTools(tools, context) : [...tools];
      return inner.map((tool) => cassetteTool(tool, context, calls, argumentScorers, stored.live.tools));
    },
  };
}

function callSignature(server: string, tool: string, args: unknown): string {
  return `${server}\u0000${tool}\u0000${JSON.stringify(args)}`;
}

/** The scorers a turn's request is matched with: the loosenings that name it, else exact. */
export function requestScorers(loosenings: StoredCassette["assertions"]["modelRequests"], key: string): Scorer[] {
  const nodeRun = key.replace(/\/t\d+$/, "");
  const node = nodeRun.replace(/#\d+$/, "");
  const named = loosenings.filter((entry) => entry.step === "*" || entry.step === key || entry.step === nodeRun || entry.step === node);
  if (named.length === 0) return exactMatch;
  const scorers = named.flatMap((entry) => entry.scorers);
  // A loosening of some fields leaves the others compared exactly.
  return scorers.some((scorer) => scorer.kind === "exact" && scorer.path === undefined) ? scorers : [{ kind: "exact" }, ...scorers];
}

function cassetteModel(request: ModelRequest, turns: ReadonlyMap<string, CassetteTurn>, scorersFor: (key: string) => Scorer[]): ModelProtocol {
  const nodeRunKey = request.nodeRunKey ?? `${request.nodeId}#1`;
  return {
    label: "cassette (recorded model turns)",
    async start(input) {
      let previous: HistoryTurn | null = null;
      let count = 0;
      const remember = (turn: ModelTurn) => {
        previous = { text: turn.text, toolCalls: turn.toolCalls.map((call) => ({ name: call.name, arguments: call.input })), results: [] };
      };
      const conversation: Conversation = {
        async turn(tools: readonly ToolDefinition[]) {
          count += 1;
          const key = turnKey(nodeRunKey, count);
          const recorded = turns.get(key);
          if (!recorded) throw new Error(`${cassetteMark} model turn ${key}: the recorded run has no such turn (the agent asked its model more often than when it was recorded)`);
          const asked = caseModelRequest({ config: request.config, instructions: input.instructions, inputs: input.inputs, previous, tools });
          const verdict = await matched(scorersFor(key), asked, recorded.request);
          if (!verdict.pass) throw new Error(`${cassetteMark} model turn ${key} was asked differently than when it was recorded: ${verdict.reason}`);
          const turn = recordedTurn(recorded);
          remember(turn);
          return turn;
        },
        addResults(_turn: ModelTurn, results: readonly ToolResultMessage[]) {
          if (previous) previous.results = results.map((result) => ({ name: result.name, isError: result.isError }));
        },
        restore(turn: ModelTurn) {
          // A resumed run replays its recorded turns: the history goes on from them.
          count += 1;
          remember(turn);
        },
      };
      return conversation;
    },
  };
}

/** The recorded answer as a model turn; its model id is the recorded model, so the trace names it alike. */
function recordedTurn(recorded: CassetteTurn): ModelTurn {
  return {
    text: recorded.answer.text,
    toolCalls: recorded.answer.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.argumentsText ?? JSON.stringify(call.arguments ?? {}), input: call.arguments })),
    ...(recorded.answer.usage ? { usage: recorded.answer.usage } : {}),
    ...(recorded.answer.finishReason ? { finishReason: recorded.answer.finishReason } : {}),
    modelId: recorded.model,
  };
}

function cassetteTool(tool: AgentTool, context: AgentToolsContext, calls: ReadonlyMap<string, CassetteCall>, argumentScorers: ReadonlyMap<string, Scorer[]>, liveTools: boolean): AgentTool {
  return {
    ...tool,
    // Answers come from the file: repeating one is always safe, and without live tools none reaches the world.
    retrySafe: true,
    ...(liveTools ? {} : { hints: { ...tool.hints, readOnly: true } }),
    call: async (args: unknown, meta: CallMeta): Promise<ToolOutcome> => {
      const key = meta.stepKey ?? "";
      const recorded = calls.get(key);
      const refusal = await mismatch(recorded, tool, args, argumentScorers.get(key) ?? exactMatch);
      if (refusal && liveTools) return tool.call(args, meta);
      const started = new Date();
      const outcome: ToolOutcome = refusal
        ? { output: `${cassetteMark} the cassette has no call ${tool.server}/${tool.name} ${brief(args)} at ${key || "this step"}: ${refusal}`, isError: true }
        : { output: recorded!.output, isError: recorded!.isError, ...(recorded!.structured === undefined ? {} : { structured: recorded!.structured }) };
      await context.recordCall({
        id: meta.rowId ?? randomUUID(),
        runId: context.runId,
        nodeRunId: meta.nodeRunId,
        tool: tool.name,
        server: tool.server,
        caller: meta.callerNodeId,
        arguments: args ?? {},
        result: refusal ? null : recorded!.result,
        error: refusal ? outcome.output : recorded!.error,
        isError: outcome.isError,
        tainted: false,
        startedAt: started.toISOString(),
        durationMs: 0,
        inputTokens: meta.usage?.inputTokens ?? null,
        outputTokens: meta.usage?.outputTokens ?? null,
        ...(meta.stepKey ? { stepKey: meta.stepKey } : {}),
      });
      return outcome;
    },
  };
}

/** Why the cassette's call at this place does not answer this one; null when it does. */
async function mismatch(recorded: CassetteCall | undefined, tool: AgentTool, args: unknown, scorers: Scorer[]): Promise<string | null> {
  if (!recorded) return "the recorded run made no call there";
  if (recorded.tool !== tool.name || recorded.server !== tool.server) return `the recorded run called ${recorded.server}/${recorded.tool} there`;
  const verdict = await matched(scorers, args, recorded.arguments);
  return verdict.pass ? null : `the arguments differ (${verdict.reason})`;
}

/** What a turn or call is matched with when no assertion loosens it. */
const exactMatch: Scorer[] = [{ kind: "exact" }];
const equal: Score = { score: 1, pass: true, reason: "the value is equal" };

/** The scorers' combined verdict; an exact match of equal values (every step of a passing replay) is told without scoring. */
async function matched(scorers: readonly Scorer[], actual: unknown, expected: unknown): Promise<Score> {
  if (scorers.length === 1 && scorers[0].kind === "exact" && scorers[0].path === undefined && jsonEqual(actual, expected)) return equal;
  return combineScores(await scoreAll(scorers, actual, expected, {}));
}
