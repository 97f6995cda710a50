import type { ApprovalPolicy, ApprovalVerdict } from "../manifest/browser";
import type { TaintedArgument } from "./tainted-arguments";

/** What a tool says about itself (MCP tool annotations, a method's declaration, a built-in's nature). */
export interface ToolHints {
  readOnly?: boolean;
  destructive?: boolean;
  openWorld?: boolean;
}

/** A tainted tool result in the calling node run's context: its trace row, and the tool that returned it when known. */
export interface TaintedContextSource {
  origin: string;
  server?: string;
  tool?: string;
}

export interface CallDecision {
  verdict: ApprovalVerdict;
  /** Which part of the policy decided: "decide" (the policy's fixed answer), "taintedWrite", "destructive", "openWorld", or "none". */
  rule: "decide" | "taintedWrite" | "destructive" | "openWorld" | "none";
  /** Why, in a sentence a person reads on the Approvals page and the model reads when denied. */
  reason: string;
  /** Why a call is held, when it is (ask or deny): each cause that gave the verdict. Empty when allowed. */
  causes: HoldCause[];
}

/** Why a call was held, as the run page and /approvals say it: the tool is destructive, the agent's context is tainted, or a policy says so. */
export type HoldCause = "destructive" | "tainted-context" | "policy";

const causeOfRule: Record<CallDecision["rule"], HoldCause> = { destructive: "destructive", taintedWrite: "tainted-context", decide: "policy", openWorld: "policy", none: "policy" };

/** One call as the policy sees it. */
export interface PolicyCall {
  tool: string;
  hints: ToolHints;
  /** The arguments that derive from tainted content (strings, marked with where they were found). */
  tainted: readonly TaintedArgument[];
  /** The tainted results the calling node run has taken in; empty when its context is clean. */
  taintedContext?: readonly TaintedContextSource[];
}

const strength: Record<ApprovalVerdict, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Decides one call from its policy, the tool's hints and the taint of the
 * context it was written in: pure. Under `rules`, every rule that applies
 * gives a verdict and the strictest wins (deny over ask over allow). Taint
 * is a property of the context, not of the argument values: once the node
 * run has taken in tainted content, a call into a tool that is not read-only
 * meets `taintedWrite` whatever its arguments are (numbers, an empty object).
 *
 * @example
 * decideCall(defaultApprovalPolicy, { tool: "transfer_funds", hints: {}, tainted: [], taintedContext: [{ origin: "row-1", server: "web", tool: "read" }] })
 * // { verdict: "ask", rule: "taintedWrite", reason: "transfer_funds is not read-only and the agent's context holds tainted content (web/read, row row-1)" }
 */
export function decideCall(policy: ApprovalPolicy, call: PolicyCall): CallDecision {
  if (policy.decide !== "rules") return { verdict: policy.decide, rule: "decide", reason: `the policy for ${call.tool} is "${policy.decide}"`, causes: policy.decide === "allow" ? [] : ["policy"] };
  const candidates: Array<Omit<CallDecision, "causes">> = [];
  const context = taintedContextOf(call);
  if (call.hints.destructive === true) candidates.push({ verdict: policy.destructive, rule: "destructive", reason: `${call.tool} is marked destructive` });
  if (context.length > 0 && call.hints.readOnly !== true) {
    candidates.push({ verdict: policy.taintedWrite, rule: "taintedWrite", reason: `${call.tool} is not read-only and ${taintText(call, context)}` });
  }
  if (call.hints.openWorld === true) candidates.push({ verdict: policy.openWorld, rule: "openWorld", reason: `${call.tool} is marked open-world` });
  return strictestOf(candidates);
}

/** The strictest of several decisions: the first rule among equals, with the reasons of all of them; "allow … no rule applies" when there are none. */
export function strictestOf(candidates: ReadonlyArray<Omit<CallDecision, "causes">>): CallDecision {
  const strictest = candidates.reduce<Omit<CallDecision, "causes"> | undefined>((best, next) => (!best || strength[next.verdict] > strength[best.verdict] ? next : best), undefined);
  if (!strictest || strictest.verdict === "allow") return { verdict: "allow", rule: strictest?.rule ?? "none", reason: strictest ? `${strictest.reason}, which the policy allows` : "no rule applies", causes: [] };
  const holding = candidates.filter((candidate) => candidate.verdict === strictest.verdict);
  return { ...strictest, reason: holding.map((candidate) => candidate.reason).join("; and "), causes: [...new Set(holding.map((candidate) => causeOfRule[candidate.rule]))] };
}

/** Tainted arguments imply a tainted context, for callers that only know the arguments. */
function taintedContextOf(call: PolicyCall): readonly TaintedContextSource[] {
  if (call.taintedContext?.length) return call.taintedContext;
  return call.tainted.length ? [{ origin: "(this node run)" }] : [];
}

function taintText(call: PolicyCall, context: readonly TaintedContextSource[]): string {
  const sources = context.map((source) => (source.server && source.tool ? `${source.server}/${source.tool}, row ${source.origin}` : `row ${source.origin}`)).join("; ");
  const fromArguments = call.tainted.filter((argument) => argument.foundIn.length > 0).map((argument) => argument.path || "(the arguments)");
  const copied = fromArguments.length ? `; ${plural(fromArguments.length, "argument")} ${fromArguments.join(", ")} ${fromArguments.length === 1 ? "was" : "were"} copied from it` : "";
  return `the agent's context holds tainted content (${sources})${copied}`;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
