import { mcpServerChoice, type Workflow, type WorkflowNode } from "../../graph";
import { type AppliedPolicy, approvalDecision, decideApplied, policyFor, type TaintedContextSource, type TaintSource, TaintedValueIndex, taintedArguments } from "../../policy";
import { approvalGrantKey } from "../workflow-grants";
import type { AgentTool, CallMeta, ToolOutcome } from "../../tools";
import type { RunSink, ToolCallRow, ApprovalRequest, TaintRegistry } from "../../trace";
import { RunInterruption, type StepRecorder } from "../journal/step-recorder";
import { type ApprovalPlan, planApproval, waitingRequest } from "./approval-plan";
import type { InlineApprover } from "./inline-approver";

/** What the journal asks before a call runs that was not recorded: run it (with these arguments), or it was answered without running. */
export type GateResult = { action: "run"; args: unknown } | { action: "answered"; outcome: ToolOutcome };

export interface ApprovalGateOptions {
  runId: string;
  recorder: StepRecorder;
  taint: TaintRegistry;
  sink: RunSink;
  node: WorkflowNode;
  workflow: Workflow;
  now: () => Date;
  /** Asked before a call waits: a decision from it is recorded and applied at once (see ./inline-approver.ts). */
  approveInline?: InlineApprover;
  /** The `server/tool` (or `server/*`) defaults an owner let this workflow's document loosen (its grants); none when unset. */
  loosenedApprovals?: ReadonlySet<string>;
}

/**
 * The service or task edge a tool reached the agent through: from the node
 * that serves it (a service node or Task Start, whose id is the tool's
 * server), or from an MCP server node that names the tool's registry server.
 */
export function wiredEdge(workflow: Workflow, agentId: string, server: string): Workflow["edges"][number] | undefined {
  const servesIt = (source: string) => {
    if (source === server) return true;
    const node = workflow.nodes.find((candidate) => candidate.id === source);
    return node !== undefined && mcpServerChoice(node)?.serverId === server;
  };
  const edges = workflow.edges.filter((candidate) => candidate.target === agentId && candidate.kind !== "signal" && servesIt(candidate.source));
  // Two server nodes naming the same server: the one whose id is the server's wins, else the first that sets a policy.
  return edges.find((candidate) => candidate.source === server) ?? edges.find((candidate) => candidate.approval !== undefined) ?? edges[0];
}

/**
 * The approval policy applied at the one place a call is made (the
 * journalled call): the policy for the tool where it is wired, the tool's
 * hints and the arguments' taint decide allow, deny or ask. A call that asks
 * records `<key>/waiting` and stops the run as needing attention; no
 * process holds it. Once a person's decision is recorded under
 * `<key>/decision`, the resumed run replays up to the call and applies it:
 * approved (with the arguments they may have edited) it runs once; denied,
 * the model receives the reason as the tool's error result. Each applied
 * decision writes one trace row (server `switchboard`, tool `approval`).
 */
export class ApprovalGate {
  /** The tainted results this node run took in, indexed by their text: where a tainted argument came from, found without a rescan. */
  private readonly sources = new TaintedValueIndex();
  /** The same, by origin: who returned each. */
  private readonly sourceOf = new Map<string, TaintSource>();
  /** Each node run's tainted context, grown as origins come (in the order of the node run's origins): read per call, never rebuilt. */
  private readonly contexts = new Map<string, TaintedContextSource[]>();
  /** The edge each server's tools reach this node through: the document does not change during the run. */
  private readonly edges = new Map<string, Workflow["edges"][number] | undefined>();
  /** Each tool's policy, with and without a tainted write (see policyOf). */
  private readonly policies = new WeakMap<AgentTool, Map<boolean, AppliedPolicy>>();

  constructor(private readonly options: ApprovalGateOptions) {}

  /** After each call (run or replayed): remembers the text of a result that brought taint in (the origins past the count held before the call). */
  observe(tool: AgentTool, originsBefore: number, meta: CallMeta, outcome: ToolOutcome): void {
    const brought = this.options.taint.originsSince(meta.nodeRunId, originsBefore);
    if (brought.length === 0) return;
    const context = this.contexts.get(meta.nodeRunId);
    const sources = brought.map((origin, offset) => {
      const source = { origin, server: tool.server, tool: tool.name };
      this.sourceOf.set(origin, source);
      // An origin the context already listed before this gate saw who returned it: now it is known.
      if (context && originsBefore + offset < context.length) context[originsBefore + offset] = { ...source };
      return source;
    });
    this.sources.add(outcome.output, sources);
  }

  /** The tainted results in the node run's context, each with the tool that returned it when this gate saw it come in: the gate's own list, read it and never keep it. */
  private taintedContext(nodeRunId: string): readonly TaintedContextSource[] {
    const origins = this.options.taint.originList(nodeRunId);
    let context = this.contexts.get(nodeRunId);
    if (!context) this.contexts.set(nodeRunId, (context = []));
    for (let index = context.length; index < origins.length; index++) {
      const origin = origins[index];
      const seen = this.sourceOf.get(origin);
      context.push(seen ? { origin, server: seen.server, tool: seen.tool } : { origin });
    }
    return context;
  }

  async check(tool: AgentTool, args: unknown, meta: CallMeta, key: string): Promise<GateResult> {
    const { recorder } = this.options;
    // Most calls have no decision: parsing nothing would only build a validation error.
    const recordedDecision = recorder.has(`${key}/decision`);
    const decided = recordedDecision ? approvalDecision.safeParse(recordedDecision.value) : { success: false as const };
    const waiting = recorder.has(`${key}/waiting`)?.value as ApprovalRequest | undefined;
    const hints = tool.hints ?? {};
    const taintedContext = this.taintedContext(meta.nodeRunId);
    const applied = this.policyOf(tool, taintedContext.length > 0 && hints.readOnly !== true);
    const tainted = taintedArguments(args, this.sources, taintedContext.length > 0);
    const verdict = decideApplied(applied, { tool: tool.name, hints, tainted, taintedContext });
    const requestedAt = this.options.now();
    const plan = planApproval({ args, decision: decided.success ? decided.data : undefined, waiting, verdict, now: requestedAt });
    // Only a call that waits or applies a decision shows its request: built then, with its own copy of the context.
    const requestOf = (): ApprovalRequest =>
      waiting ?? waitingRequest({ policy: verdict.policy, setAt: verdict.setAt, rule: verdict.rule, reason: verdict.reason, causes: verdict.causes, tainted, taintedContext: [...taintedContext], inputSchema: tool.inputSchema }, requestedAt);
    if (plan.action === "wait") {
      const request = requestOf();
      const decision = await this.options.approveInline?.({ tool: tool.name, server: tool.server, arguments: args, approval: request });
      if (!decision || !approvalDecision.safeParse(decision).success) return this.wait(tool, args, meta, key, request);
      await recorder.record({ key: `${key}/decision`, kind: "decision", value: decision });
      return this.check(tool, args, meta, key);
    }
    if (plan.decision) await this.writeDecisionRow(tool, args, meta, key, plan, requestOf());
    if (plan.action === "run") return { action: "run", args: plan.args };
    const outcome: ToolOutcome = { output: plan.message, isError: true };
    await this.writeRow(tool, args, meta, key, { result: null, error: plan.message, isError: true });
    await recorder.record({ key, kind: "tool-call", value: { outcome } });
    return { action: "answered", outcome };
  }

  /** The policy for the tool where it is wired: the same for every call of the tool but for the context's taint, so worked out once for each. */
  private policyOf(tool: AgentTool, taintedWrite: boolean): AppliedPolicy {
    let known = this.policies.get(tool);
    if (!known) this.policies.set(tool, (known = new Map()));
    const cached = known.get(taintedWrite);
    if (cached) return cached;
    if (!this.edges.has(tool.server)) this.edges.set(tool.server, wiredEdge(this.options.workflow, this.options.node.id, tool.server));
    const edge = this.edges.get(tool.server);
    const looseningApproved = this.options.loosenedApprovals !== undefined && [approvalGrantKey(tool.server, tool.name), approvalGrantKey(tool.server, "*")].some((grant) => this.options.loosenedApprovals!.has(grant));
    const wiring = { node: this.options.node.approvals, edge: edge?.approval, server: tool.serverApproval, tool: tool.approval, taintedWrite, looseningApproved };
    const applied = policyFor(tool, wiring, edge?.id);
    known.set(taintedWrite, applied);
    return applied;
  }

  private async wait(tool: AgentTool, args: unknown, meta: CallMeta, key: string, request: ApprovalRequest): Promise<never> {
    if (!this.options.recorder.has(`${key}/waiting`)) await this.options.recorder.record({ key: `${key}/waiting`, kind: "waiting", value: request });
    const message = `${tool.server}/${tool.name} waits for approval: ${request.reason}`;
    throw new RunInterruption("needs-attention", message, { key, nodeId: this.options.node.id, nodeRunId: meta.nodeRunId, tool: tool.name, server: tool.server, arguments: args, message, approval: request });
  }

  /** The decision as a trace row, once: who, when, what they changed, the policy that asked and the tainted arguments. */
  private async writeDecisionRow(tool: AgentTool, args: unknown, meta: CallMeta, key: string, plan: Exclude<ApprovalPlan, { action: "wait" }>, request: ApprovalRequest): Promise<void> {
    const rowKey = `${key}/approval`;
    const decision = plan.decision!;
    if (this.options.recorder.has(rowKey)) return;
    const edited = plan.action === "run" && decision.action === "approve" && decision.arguments !== undefined && JSON.stringify(decision.arguments) !== JSON.stringify(args);
    const summary = {
      call: `${tool.server}/${tool.name}`,
      callKey: key,
      decision: decision.action === "approve" ? (edited ? "approved with edited arguments" : "approved") : decision.by === "timeout" ? "denied (timed out)" : "denied",
      by: decision.by,
      at: decision.at,
      ...(decision.action === "deny" ? { reason: decision.reason } : {}),
      ...(edited ? { argumentsBefore: args, argumentsAfter: plan.args } : {}),
      policy: { ...request.policy, setAt: request.setAt, rule: request.rule, reason: request.reason },
      tainted: request.tainted,
      waitedSince: request.since,
    };
    await this.writeRow({ name: "approval", server: "switchboard" }, summary, meta, rowKey, { result: summary.decision, error: null, isError: false });
    await this.options.recorder.record({ key: rowKey, kind: "decision", value: decision });
  }

  private async writeRow(tool: Pick<AgentTool, "name" | "server">, args: unknown, meta: CallMeta, stepKey: string, result: Pick<ToolCallRow, "result" | "error" | "isError">): Promise<void> {
    await this.options.sink.toolCall({
      id: this.options.recorder.rowId(stepKey),
      stepKey,
      runId: this.options.runId,
      nodeRunId: meta.nodeRunId,
      tool: tool.name,
      server: tool.server,
      caller: this.options.node.id,
      arguments: args ?? {},
      ...result,
      tainted: false,
      startedAt: this.options.now().toISOString(),
      durationMs: 0,
      inputTokens: null,
      outputTokens: null,
    });
  }
}
