import { type ApprovalPolicy, approvalPolicy, defaultApprovalPolicy } from "../graph/approval-policy";

/** Where a tool's policy may be set, from most to least specific. */
export interface PolicyWiring {
  /** The agent node's `approvals`: keyed by `server/tool`, `tool`, `server/*` or `*`. */
  node?: Record<string, unknown>;
  /** The `approval` of the service or task edge the tool came through. */
  edge?: unknown;
  /** The registry server's default for this tool (its per-tool entry, else its server-wide one), set on /servers. */
  server?: { policy: unknown; scope: "tool" | "server" };
  /** The tool's own default: its method's `approval` in a service manifest. */
  tool?: unknown;
}

/** The policy that applies, and where it was set (shown on the Approvals page and the trace). */
export interface AppliedPolicy {
  policy: ApprovalPolicy;
  /** e.g. `node approvals["mail/send_email"]`, `edge e3`, `the server default`, `the tool's default`, `the workflow default`. */
  setAt: string;
}

/**
 * The policy for one tool of one agent: pure. From most to least specific:
 * the agent node's entry for the tool (`server/tool`, `tool`, `server/*`),
 * the edge's, the node's `*`, the registry server's default (its entry for
 * the tool, else its server-wide one), the method's default in its service
 * manifest, and with nothing set, the workflow default (tainted arguments
 * into a tool that is not read-only ask). Stored policies were checked when
 * they were saved; they are parsed again here, and one that fails falls to
 * the next level.
 *
 * @example
 * policyFor({ name: "send_email", server: "mail" }, { node: { send_email: { decide: "ask" } } }).policy.decide // "ask"
 */
export function policyFor(tool: { name: string; server: string }, wiring: PolicyWiring, edgeId?: string): AppliedPolicy {
  const node = wiring.node ?? {};
  const levels: Array<[string, unknown]> = [
    [`node approvals["${tool.server}/${tool.name}"]`, node[`${tool.server}/${tool.name}`]],
    [`node approvals["${tool.name}"]`, node[tool.name]],
    [`node approvals["${tool.server}/*"]`, node[`${tool.server}/*`]],
    [`edge ${edgeId ?? ""}`.trim(), wiring.edge],
    [`node approvals["*"]`, node["*"]],
    [wiring.server?.scope === "tool" ? `the server default for ${tool.name} (${tool.server})` : `the server default (${tool.server})`, wiring.server?.policy],
    ["the tool's default", wiring.tool],
  ];
  for (const [setAt, value] of levels) {
    if (value === undefined) continue;
    const parsed = approvalPolicy.safeParse(typeof value === "string" ? { decide: value } : value);
    if (parsed.success) return { policy: parsed.data, setAt };
  }
  return { policy: defaultApprovalPolicy, setAt: "the workflow default" };
}
