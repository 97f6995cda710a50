import { approvalPolicy, mcpServerChoice, policyLabel, type ServerApprovalDefaultsInput, type WorkflowNode } from "../graph";
import type { CanvasServer } from "./canvas-servers";

/** The edge fields the badge reads and writes (a CanvasEdge has them). */
interface BadgedEdge {
  source: string;
  label?: unknown;
  ariaLabel?: string;
  className?: string;
  data?: { kind?: string; approval?: unknown };
}

function labelOf(wired: unknown): string {
  const parsed = approvalPolicy.safeParse(typeof wired === "string" ? { decide: wired } : wired);
  return parsed.success ? policyLabel(parsed.data) : "invalid policy";
}

/**
 * The badge of a registry server's default policy, for an MCP server node:
 * the server-wide policy, then the per-tool ones that concern the node's
 * tools, e.g. `ask (from server default)` or `ask, send_email: deny (from
 * server default)`. Null when the server sets none for them.
 */
export function serverDefaultBadge(defaults: ServerApprovalDefaultsInput | undefined, toolNames?: readonly string[]): string | null {
  if (!defaults) return null;
  const tools = Object.entries(defaults.tools ?? {}).filter(([tool]) => !toolNames || toolNames.includes(tool));
  const parts = [defaults.policy === undefined ? null : labelOf(defaults.policy), ...tools.map(([tool, policy]) => `${tool}: ${labelOf(policy)}`)].filter((part): part is string => part !== null);
  return parts.length ? `${parts.join(", ")} (from server default)` : null;
}

/**
 * Edges drawn with their server's default policy: a service edge that sets
 * no policy of its own, from an MCP server node whose registry server has
 * defaults, shows them as its badge ("approval: ask (from server default)").
 * Edges with their own policy, and all others, are returned as they are.
 */
export function withServerDefaultBadges<E extends BadgedEdge>(edges: readonly E[], nodes: ReadonlyArray<{ id: string; data: Pick<WorkflowNode, "type" | "config"> }>, servers: ReadonlyMap<string, CanvasServer>): E[] {
  return edges.map((edge) => {
    if (edge.data?.approval !== undefined || edge.data?.kind === "signal") return edge;
    const node = nodes.find((candidate) => candidate.id === edge.source);
    const choice = node ? mcpServerChoice(node.data) : undefined;
    const badge = choice ? serverDefaultBadge(servers.get(choice.serverId)?.approval, choice.toolNames) : null;
    if (!badge) return edge;
    return { ...edge, label: `approval: ${badge}`, className: `${edge.className ?? ""} has-approval from-server-default`.trim(), ariaLabel: `${edge.ariaLabel ?? "Edge"}, approval policy ${badge}` };
  });
}
