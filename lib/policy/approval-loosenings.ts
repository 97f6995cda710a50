import { type ApprovalPolicy, type ApprovalVerdict, type ServerApprovalDefaultsInput, serverDefaultFor } from "../manifest/browser";
import { mcpServerChoice, type Workflow } from "../graph";
import { parsedPolicy, policyFor } from "./policy-for-tool";

/** A document's policy that would loosen a registry server's default: a request an owner approves per workflow. */
export interface ApprovalLoosening {
  nodeId: string;
  server: string;
  /** The tool, or `*` for the server-wide default. */
  tool: string;
  /** Where the document sets the looser policy, e.g. `node approvals["*"]`, `edge e3`. */
  setAt: string;
  /** Short labels: what the document says, and the floor it would loosen. */
  document: string;
  floor: string;
}

const strength: Record<ApprovalVerdict, number> = { allow: 0, ask: 1, deny: 2 };
/** A tool name no server has: the levels that apply to every tool of a server (`server/*`, the edge, `*`). */
const anyTool = "\u0000any";

/**
 * Whether `policy` can let through a call that `floor` would hold: pure.
 * Compared rule by rule, a fixed verdict counting as that verdict for every
 * rule and for the calls no rule covers (which `rules` allows).
 *
 * @example
 * loosens({ decide: "allow", … }, { decide: "ask", … }) // true
 */
export function loosens(policy: ApprovalPolicy, floor: ApprovalPolicy): boolean {
  const a = verdictsOf(policy);
  const b = verdictsOf(floor);
  return (Object.keys(a) as Array<keyof typeof a>).some((rule) => strength[a[rule]] < strength[b[rule]]);
}

function verdictsOf(policy: ApprovalPolicy): Record<"uncovered" | "taintedWrite" | "destructive" | "openWorld", ApprovalVerdict> {
  if (policy.decide !== "rules") return { uncovered: policy.decide, taintedWrite: policy.decide, destructive: policy.decide, openWorld: policy.decide };
  return { uncovered: "allow", taintedWrite: policy.taintedWrite, destructive: policy.destructive, openWorld: policy.openWorld };
}

/**
 * Where a workflow's document loosens a registry server's approval default
 * (an "allow" where the server says "ask"): pure. For each agent and each
 * registry server it reaches (an MCP server node wired to it, or an `mcp`
 * source in its own tools), each tool the server has a default for, and
 * `*` for its server-wide default, checked against the document's own
 * policy for it. The engine holds the floor until an owner approves the
 * loosening for the workflow; this lists what to show at import, at save
 * and on the Grants page.
 *
 * @example
 * approvalLoosenings(workflow, (id) => (id === "mail" ? { tools: { send_email: "ask" } } : undefined))
 * // [{ nodeId: "clerk", server: "mail", tool: "send_email", setAt: 'node approvals["*"]', document: "allow", floor: "ask" }]
 */
export function approvalLoosenings(workflow: Pick<Workflow, "nodes" | "edges">, defaultsOf: (serverId: string) => ServerApprovalDefaultsInput | undefined): ApprovalLoosening[] {
  const found = new Map<string, ApprovalLoosening>();
  const nodesById = new Map(workflow.nodes.map((node) => [node.id, node]));
  for (const agent of workflow.nodes) {
    const reached: Array<{ server: string; edge?: { id: string; approval?: unknown } }> = [];
    for (const source of agent.tools ?? []) if (source.type === "mcp") reached.push({ server: source.serverId });
    for (const edge of workflow.edges) {
      if (edge.target !== agent.id || edge.kind === "signal") continue;
      const provider = nodesById.get(edge.source);
      const choice = provider && mcpServerChoice(provider);
      if (choice) reached.push({ server: choice.serverId, edge: { id: edge.id, approval: edge.approval } });
    }
    for (const { server, edge } of reached) {
      const defaults = defaultsOf(server);
      if (!defaults) continue;
      for (const tool of toolsToCheck(server, defaults, agent.approvals ?? {})) {
        const floor = parsedPolicy(tool === "*" ? defaults.policy : serverDefaultFor(defaults, tool)?.policy);
        const applied = policyFor({ name: tool === "*" ? anyTool : tool, server }, { node: agent.approvals, edge: edge?.approval }, edge?.id);
        if (!floor || applied.setAt === "the workflow default" || !loosens(applied.policy, floor)) continue;
        const loosening = { nodeId: agent.id, server, tool, setAt: applied.setAt, document: label(applied.policy), floor: label(floor) };
        found.set(`${agent.id}\u0000${server}\u0000${tool}`, loosening);
      }
    }
  }
  return [...found.values()];
}

/** The server's per-tool defaults, `*` when it has a server-wide one, and the tools the node's own entries name under that. */
function toolsToCheck(server: string, defaults: ServerApprovalDefaultsInput, approvals: Record<string, unknown>): string[] {
  const tools = new Set(Object.keys(defaults.tools ?? {}));
  if (defaults.policy !== undefined) {
    tools.add("*");
    for (const key of Object.keys(approvals)) {
      const name = key.startsWith(`${server}/`) ? key.slice(server.length + 1) : key.includes("/") ? "" : key;
      if (name && name !== "*") tools.add(name);
    }
  }
  return [...tools];
}

function label(policy: ApprovalPolicy): string {
  if (policy.decide !== "rules") return policy.decide;
  return `rules (tainted→${policy.taintedWrite}, destructive→${policy.destructive}, open-world→${policy.openWorld})`;
}
