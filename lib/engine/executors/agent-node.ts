import { type NodeManifest, configValues } from "../../manifest";
import { type AgentLoopOptions, runAgentLoop } from "../agent/agent-loop";
import { collectReplies, completionOutputs, loopLimits, type PutOut, responseOutputs } from "../agent/agent-settings";
import { hasToolRows, toolOutputs } from "../agent/tool-outputs";
import type { NodeJob, NodeOutcome, RunContext } from "../run-context";
import { resolveAgentTools } from "./agent-tools";
import type { Evaluator } from "../../sandbox";
import { resolveCredentials } from "./credentials";
import { AgentSteps } from "../journal/agent-steps";
import { ApprovalGate } from "../approvals/approval-gate";
import { QuestionDesk } from "../questions/question-desk";
import type { AgentTool, ToolOutcome } from "../../tools";
import { liveRedactor, type ModelTurnRow } from "../../trace";
import { historyMessages, historyWindowOf } from "../chat/chat-history";
import { publishRunText, runTextFollowed } from "../../run-model";

/**
 * An agent node: its wired tools, its model protocol, the turn loop, then
 * its `from: complete` events onto outputs. Ends with the loop's status.
 * After each call a tool answers, its `from: tool` rows put their values
 * out at once (the job's `emit`), while the loop goes on.
 */
export async function runAgentNode(job: NodeJob, manifest: NodeManifest, context: RunContext): Promise<NodeOutcome> {
  const exchange = manifest.toolExchange;
  if (!exchange) throw new Error(`${manifest.interface.name} has no toolExchange`);
  const config = configValues(manifest.config, job.node.config);
  const scope = { config, inputs: job.inputs };
  const limits = await loopLimits(exchange, scope, context.env.evaluator);
  const credentials = await resolveCredentials(manifest, context);
  const resolved = await resolveAgentTools(job.node.id, exchange.from, context);
  const callContext = { evaluator: context.env.evaluator, ...credentials, allowedOrigins: context.env.allowedPrivateOrigins, signal: context.signal };
  // A chat turn, a run started from the canvas, or a run someone follows (the run page) when the agent starts: the model's text goes out live,
  // tagged with the turn it belongs to (the key its journal entry has). Nobody following: the model answers as it would.
  // Redacted as the trace is: a secret split across pieces is held back until it can be told (lib/trace/live-redaction.ts).
  let liveTurnKey = "";
  let redactLive = liveRedactor(() => context.secrets);
  let liveOffset = 0;
  const onText = context.chat || context.liveText || runTextFollowed(context.runId)
    ? (piece: string) => {
        const text = redactLive(piece);
        if (text === "") return;
        publishRunText({ runId: context.runId, nodeId: job.node.id, turnKey: liveTurnKey, text, offset: liveOffset });
        liveOffset += text.length;
      }
    : undefined;
  const protocol = context.env.models({ nodeId: job.node.id, nodeRunKey: job.runKey, manifest, exchange, config, callContext, ...(onText ? { onText } : {}) });
  const instructions = resolved.instructions.join("\n\n");
  const gate = new ApprovalGate({ runId: context.runId, recorder: context.recorder, taint: context.taint, sink: context.sink, node: job.node, workflow: context.workflow, now: context.env.now ?? (() => new Date()), approveInline: context.env.approveInline, loosenedApprovals: context.env.grants?.approvals });
  const steps = new AgentSteps({
    recorder: context.recorder,
    nodeRunKey: job.runKey,
    nodeId: job.node.id,
    protocol: protocol.label,
    taint: context.taint,
    gate,
    questions: new QuestionDesk({ runId: context.runId, recorder: context.recorder, sink: context.sink, nodeId: job.node.id, now: context.env.now ?? (() => new Date()) }),
    nodeRunId: job.nodeRunId,
    instructions,
    prices: exchange.prices,
    onLiveTurn: (key: string) => {
      liveTurnKey = key;
      redactLive = liveRedactor(() => context.secrets);
      liveOffset = 0;
    },
    ...(context.sink.modelTurn ? { onTurn: (row: ModelTurnRow) => context.sink.modelTurn?.(row) } : {}),
  });
  const { conversation, replies } = collectReplies(steps.conversation(await protocol.start({ instructions, config, inputs: job.inputs, ...(context.chat ? { history: historyMessages(context.chat.history, historyWindowOf(config)) } : {}) })));
  const putOut = new Map<string, unknown>();
  const wired = context.env.agentTools
    ? context.env.agentTools(resolved.tools, { runId: context.runId, nodeId: job.node.id, nodeRunKey: job.runKey, recordCall: async (row) => void (await context.sink.toolCall(row)) })
    : resolved.tools;
  const tools = wired.map((tool) => steps.tool(tool, (called, args, outcome, row) => writeSkippedRow({ tool: called, args, outcome, row, nodeId: job.node.id }, context)));
  const result = await runAgentLoop({
    conversation,
    tools,
    ...limits,
    nodeRunId: job.nodeRunId,
    callerNodeId: job.node.id,
    rank: context.env.rankTools?.(tools),
    signal: context.signal,
    onToolResult: emitToolOutputs(job, manifest, scope, context.env.evaluator, putOut),
    recordPlatformCall: (call) =>
      steps.platform(call.turn, call.callIndex, (stepKey, rowId) => Promise.resolve(context.sink.toolCall({
        id: rowId,
        stepKey,
        runId: context.runId,
        nodeRunId: job.nodeRunId,
        tool: call.tool,
        server: "switchboard",
        caller: job.node.id,
        arguments: call.arguments,
        result: call.isError ? null : call.output,
        error: call.isError ? call.output : null,
        isError: call.isError,
        tainted: false,
        startedAt: call.startedAt,
        durationMs: call.durationMs,
        inputTokens: call.usage?.inputTokens ?? null,
        outputTokens: call.usage?.outputTokens ?? null,
      })), { output: call.output, isError: call.isError }),
  });
  if (result.status !== "completed" && result.status !== "max_turns") {
    return { status: result.status, outputs: {}, error: result.error ?? result.status, turns: result.turns };
  }
  let outputs: Record<string, unknown>;
  try {
    const streamed = await responseOutputs(manifest.events, scope, replies, context.env.evaluator);
    for (const [name, value] of Object.entries(streamed)) putOut.set(name, value);
    const events: PutOut[] = [...putOut].map(([emit, value]) => ({ emit, value }));
    outputs = { ...streamed, ...(await completionOutputs(manifest.events, scope, result.text, context.env.evaluator, events)) };
  } catch (error) {
    return { status: "failed", outputs: {}, error: (error as Error).message, turns: result.turns };
  }
  const error = result.status === "max_turns" ? `stopped at maxTurns (${limits.maxTurns}) before the agent finished` : null;
  return { status: result.status, outputs, error, turns: result.turns };
}

/** The loop's onToolResult: after each call, the `from: tool` rows that fire are emitted at once. None without such a row, or outside a graph run. */
function emitToolOutputs(job: NodeJob, manifest: NodeManifest, scope: { config: Record<string, unknown>; inputs: Record<string, unknown> }, evaluator: Evaluator, putOut: Map<string, unknown>): AgentLoopOptions["onToolResult"] {
  const emit = job.emit;
  if (!emit || !hasToolRows(manifest.events)) return undefined;
  const accumulated = new Map<string, unknown[]>();
  return async (event) => {
    const outputs = await toolOutputs(manifest.events, scope, event, evaluator, accumulated);
    for (const [name, value] of Object.entries(outputs)) putOut.set(name, value);
    if (Object.keys(outputs).length) await emit(outputs);
  };
}

/** The row of a call a person chose to skip on /runs/[id]: the result they typed, marked as theirs. */
async function writeSkippedRow(skipped: { tool: AgentTool; args: unknown; outcome: ToolOutcome; row: { id: string; stepKey: string; nodeRunId: string }; nodeId: string }, context: RunContext): Promise<void> {
  await context.sink.toolCall({
    id: skipped.row.id,
    stepKey: skipped.row.stepKey,
    runId: context.runId,
    nodeRunId: skipped.row.nodeRunId,
    tool: skipped.tool.name,
    server: skipped.tool.server,
    caller: skipped.nodeId,
    arguments: skipped.args ?? {},
    result: { skippedByPerson: true, result: skipped.outcome.output },
    error: null,
    isError: false,
    tainted: false,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    inputTokens: null,
    outputTokens: null,
  });
}
