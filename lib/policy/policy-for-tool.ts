import { type ApprovalPolicy, approvalPolicy, defaultApprovalPolicy } from "../manifest/browser";

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
  /**
   * The call comes from a tainted context into a tool that is not read-only:
   * an allow written for every tool (`*`, `server/*`, an edge, a server-wide
   * default) does not reach it; only one that names the tool does.
   */
  taintedWrite?: boolean;
  /** An owner approved this workflow's policy loosening the server default for this tool: the floor is lifted. */
  looseningApproved?: boolean;
}

/** The policy that applies, and where it was set (shown on the Approvals page and the trace). */
export interface AppliedPolicy {
  policy: ApprovalPolicy;
  /** e.g. `node approvals["mail/send_email"]`, `edge e3`, `the server default`, `the tool's default`, `the workflow default`. */
  setAt: string;
  /**
   * The registry server's default, when the document's own policy was
   * chosen over it: a floor the document can make stricter, never looser
   * (the call meets both, the strictest verdict wins).
   */
  floor?: { policy: ApprovalPolicy; setAt: string };
  /** Wildcard allows passed over because the call comes from a tainted context. */
  passedOver: string[];
}

interface Level {
  setAt: string;
  value: unknown;
  /** Set by the workflow's document (a node or an edge), not by an owner or the tool. */
  document: boolean;
  /** Names the tool, rather than every tool of a server or of the agent. */
  namesTool: boolean;
}

/**
 * The policy for one tool of one agent: pure. From most to least specific:
 * the agent node's entry for the tool (`server/tool`, `tool`, `server/*`),
 * the edge's, the node's `*`, the registry server's default (its entry for
 * the tool, else its server-wide one), the method's default in its service
 * manifest, and with nothing set, the workflow default (destructive tools,
 * and tools that are not read-only once the context is tainted, ask).
 * Stored policies were checked when they were saved; they are parsed again
 * here, and one that fails falls to the next level.
 *
 * The registry server's default is a floor: when the document's node or
 * edge policy wins, the server default comes back as `floor`, and the call
 * must pass both, unless an owner approved the loosening for this workflow.
 *
 * @example
 * policyFor({ name: "send_email", server: "mail" }, { node: { send_email: { decide: "ask" } } }).policy.decide // "ask"
 */
export function policyFor(tool: { name: string; server: string }, wiring: PolicyWiring, edgeId?: string): AppliedPolicy {
  const node = wiring.node ?? {};
  const serverSetAt = wiring.server?.scope === "tool" ? `the server default for ${tool.name} (${tool.server})` : `the server default (${tool.server})`;
  const levels: Level[] = [
    { setAt: `node approvals["${tool.server}/${tool.name}"]`, value: node[`${tool.server}/${tool.name}`], document: true, namesTool: true },
    { setAt: `node approvals["${tool.name}"]`, value: node[tool.name], document: true, namesTool: true },
    { setAt: `node approvals["${tool.server}/*"]`, value: node[`${tool.server}/*`], document: true, namesTool: false },
    { setAt: `edge ${edgeId ?? ""}`.trim(), value: wiring.edge, document: true, namesTool: false },
    { setAt: `node approvals["*"]`, value: node["*"], document: true, namesTool: false },
    { setAt: serverSetAt, value: wiring.server?.policy, document: false, namesTool: wiring.server?.scope === "tool" },
    { setAt: "the tool's default", value: wiring.tool, document: false, namesTool: true },
  ];
  const passedOver: string[] = [];
  for (const level of levels) {
    const policy = parsedPolicy(level.value);
    if (!policy) continue;
    if (wiring.taintedWrite && !level.namesTool && letsTaintedCallsThrough(policy)) {
      passedOver.push(level.setAt);
      continue;
    }
    const floor = level.document && !wiring.looseningApproved ? parsedPolicy(wiring.server?.policy) : undefined;
    return { policy, setAt: level.setAt, passedOver, ...(floor ? { floor: { policy: floor, setAt: serverSetAt } } : {}) };
  }
  return { policy: defaultApprovalPolicy, setAt: "the workflow default", passedOver };
}

/** A stored policy (a bare verdict or an object) parsed; undefined when unset or no longer valid. */
export function parsedPolicy(value: unknown): ApprovalPolicy | undefined {
  if (value === undefined) return undefined;
  const parsed = approvalPolicy.safeParse(typeof value === "string" ? { decide: value } : value);
  return parsed.success ? parsed.data : undefined;
}

function letsTaintedCallsThrough(policy: ApprovalPolicy): boolean {
  return policy.decide === "allow" || (policy.decide === "rules" && policy.taintedWrite === "allow");
}
