import { type GraphProblem, lookupNodeType, type NodeTypes, parseWorkflow, validateRunInput, validateWorkflow, type Workflow, type WorkflowNode } from "../../graph";
import type { ConfigValidator } from "../../graph/validation-context";
import { type ForkChange, stepNode } from "../../run-model/fork-change";

/** A model id as providers spell them: one word of letters, digits and `. _ : / @ + -` (gpt-4o-mini, claude-sonnet-4-5, llama3.1:8b, models/gemini-2.0-flash). */
const modelIdPattern = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

export type SettingProblem = { field: "prompt" | "model" | "at" | "document"; message: string };

/**
 * The document a prompt or model fork runs: the parent's with the agent's
 * `systemPrompt` or `model` setting replaced. Refused (nothing to fork) for
 * a step that is not an agent's, a node type without that setting, an empty
 * prompt, a model id that is not one, or a value the agent already has.
 */
export function withAgentSetting(
  document: Workflow,
  at: string,
  change: { setting: "systemPrompt"; value: string } | { setting: "model"; value: string },
  nodeTypes: NodeTypes,
): { ok: true; document: Workflow; change: ForkChange } | { ok: false; problem: SettingProblem } {
  const field = change.setting === "systemPrompt" ? "prompt" : "model";
  const what = change.setting === "systemPrompt" ? "system prompt" : "model";
  const value = change.value.trim();
  if (change.setting === "systemPrompt" && value === "") return { ok: false, problem: { field, message: "The system prompt is empty: type the prompt the agent should have from the fork point on." } };
  if (change.setting === "model" && !modelIdPattern.test(value)) {
    return { ok: false, problem: { field, message: `"${change.value}" is not a model id: write it as the provider names it, one word of letters, digits and . _ : / @ + - (e.g. gpt-4o-mini, claude-sonnet-4-5, llama3.1:8b).` } };
  }
  const place = stepNode(at);
  if (!place) return { ok: false, problem: { field: "at", message: `Step "${at}" is not an agent's step: a different ${what} needs a model turn or a tool call of an agent.` } };
  if (place.nested) return { ok: false, problem: { field: "at", message: `Step "${at}" is inside a task's sub-flow, whose agents are not in this run's document: fork at the task's call instead, or change the sub-flow's agent on the canvas.` } };
  const node = document.nodes.find((candidate) => candidate.id === place.nodeId);
  if (!node) return { ok: false, problem: { field: "at", message: `The run's document has no node "${place.nodeId}" for step "${at}".` } };
  const info = lookupNodeType(nodeTypes, node.type);
  if (!info) return { ok: false, problem: { field: "at", message: `Node ${node.id}'s type ${node.type} is not among the installed node types: its ${what} cannot be checked.` } };
  if (!info.hasToolExchange) return { ok: false, problem: { field: "at", message: `Node ${node.id} (${node.type}) is not an agent: only an agent has a ${what} to change.` } };
  const declared = info.configSchema?.properties?.[change.setting] as { default?: unknown } | undefined;
  if (!declared) return { ok: false, problem: { field, message: `Node ${node.id} (${node.type}) has no ${what} setting: its type does not declare \`${change.setting}\`.` } };
  const current = typeof node.config[change.setting] === "string" ? (node.config[change.setting] as string) : typeof declared.default === "string" ? declared.default : null;
  if (current === value) return { ok: false, problem: { field, message: `Node ${node.id} already has that ${what}: the fork would change nothing.` } };
  const nodes = document.nodes.map((candidate) => (candidate.id === node.id ? { ...candidate, config: { ...candidate.config, [change.setting]: value } } : candidate));
  return {
    ok: true,
    document: { ...document, nodes },
    change: change.setting === "systemPrompt" ? { kind: "prompt", nodeId: node.id, prompt: value } : { kind: "model", nodeId: node.id, from: current, model: value },
  };
}

/**
 * A document a fork would run instead of its parent's: it must parse, have
 * no graph error, and take the parent's input. Its problems, listed, else
 * the workflow.
 */
export function checkForkDocument(document: unknown, input: unknown, nodeTypes: NodeTypes, validateConfig?: ConfigValidator): { ok: true; workflow: Workflow } | { ok: false; problems: string[] } {
  const parsed = parseWorkflow(document);
  if (!parsed.ok) return { ok: false, problems: parsed.problems.map((problem) => `${problem.field ? `${problem.field}: ` : ""}${problem.message}`) };
  const errors = validateWorkflow(parsed.workflow, nodeTypes, validateConfig ? { validateConfig } : {}).filter((problem: GraphProblem) => problem.severity === "error");
  if (errors.length) return { ok: false, problems: errors.map((problem) => problem.message) };
  const checked = validateRunInput(parsed.workflow, input);
  if (!checked.ok) return { ok: false, problems: checked.problems.map((problem) => `the run's input does not fit the new Start: ${problem.message}`) };
  return { ok: true, workflow: parsed.workflow };
}

/** What a node is, for "did the document change it": everything but where it sits and what it is called on the canvas. */
function nodeIdentity(node: WorkflowNode): string {
  const { position: _position, label: _label, ...rest } = node;
  void _position;
  void _label;
  return canonical(rest);
}

/** A node's edges, each without its id, in a stable order. */
function wiringOf(document: Workflow, nodeId: string): string {
  return document.edges
    .filter((edge) => edge.source === nodeId || edge.target === nodeId)
    .map(({ id: _id, ...edge }) => canonical(edge))
    .sort()
    .join(";");
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The nodes of `after` that differ from `before` (added, removed, another
 * type or config, or wired otherwise: an edge in or out of the node added,
 * removed or changed, since an edge decides a node's inputs, its tools and
 * their approval), by id.
 */
export function changedNodes(before: Workflow, after: Workflow): string[] {
  const old = new Map(before.nodes.map((node) => [node.id, `${nodeIdentity(node)}|${wiringOf(before, node.id)}`]));
  const now = new Map(after.nodes.map((node) => [node.id, `${nodeIdentity(node)}|${wiringOf(after, node.id)}`]));
  const ids = new Set([...old.keys(), ...now.keys()]);
  return [...ids].filter((id) => old.get(id) !== now.get(id)).sort();
}

/**
 * A document fork's rule: a step replayed from the journal must have been
 * made by the node the new document still has. Every node with a replayed
 * step (the outermost node of its key) must be in the new document with the
 * same type and settings; else the fork is refused naming the node, as a
 * Temporal replay refuses history that the changed code would not have
 * made. A step inside a task's sub-flow is checked by its own (innermost)
 * node: the sub-flow's nodes are in the same document. Returns the refusal, or null.
 */
export function replayedNodesChanged(before: Workflow, after: Workflow, replayedKeys: Iterable<string>, at: string): SettingProblem | null {
  const changed = new Set(changedNodes(before, after));
  const offending = new Map<string, string[]>();
  for (const key of replayedKeys) {
    const place = stepNode(key);
    // The step's own node, the innermost one for a step inside a task's sub-flow.
    if (!place || !changed.has(place.nodeId)) continue;
    // Named by the model turns, tool calls and step results it made (not the entries kept beside a call).
    if (/\/(start|choice|waiting|decision)$/.test(key)) continue;
    offending.set(place.nodeId, [...(offending.get(place.nodeId) ?? []), key]);
  }
  if (offending.size === 0) return null;
  const removed = new Set(before.nodes.map((node) => node.id).filter((id) => !after.nodes.some((node) => node.id === id)));
  const named = [...offending].map(([nodeId, keys]) => `${nodeId} (${removed.has(nodeId) ? "removed" : "changed"}; ${keys.length === 1 ? "1 step" : `${keys.length} steps`} recorded: ${keys.sort().slice(0, 3).join(", ")}${keys.length > 3 ? ", …" : ""})`);
  return {
    field: "document",
    message: `The new document changed ${offending.size === 1 ? "node" : "nodes"} ${named.join(", ")} before the fork point at ${at}: those steps were made by the old ${offending.size === 1 ? "node" : "nodes"} and cannot be replayed against it. Fork at the changed node's first step instead (its first model turn is then asked again), or change only its prompt or model from this step on.`,
  };
}
