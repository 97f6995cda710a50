import { z } from "zod";

/**
 * Approval policies as data: what happens when an agent calls a tool.
 * `allow` runs it, `deny` answers the model with an error, `ask` waits for
 * a person; `rules` (the default) decides from the call itself, with one
 * verdict per rule. A policy is set where the tool is wired (the agent
 * node's `approvals`, a service or task edge's `approval`), defaulted per
 * server in the registry and per method in a service manifest; no policy
 * at all means the default rules, the safe ones.
 */
export const approvalVerdict = z.enum(["allow", "ask", "deny"]);
export type ApprovalVerdict = z.infer<typeof approvalVerdict>;

export const approvalPolicy = z
  .strictObject({
    decide: z
      .enum(["allow", "ask", "deny", "rules"])
      .default("rules")
      .meta({ description: "allow, ask (a person approves each call), deny, or rules: decide from the call (the rules below)." }),
    taintedWrite: approvalVerdict
      .default("ask")
      .meta({ description: "When the agent's context holds tainted (outside) content and the tool is not read-only (readOnlyHint false or absent), whatever the arguments." }),
    destructive: approvalVerdict
      .default("ask")
      .meta({ description: "When the tool is destructive: destructiveHint true, or no annotations and not read-only (the MCP default)." }),
    openWorld: approvalVerdict.default("allow").meta({ description: "When the tool is marked open-world (openWorldHint: true)." }),
    timeoutHours: z
      .number()
      .positive("must be more than 0")
      .max(24 * 90, "at most 90 days (2160 hours)")
      .default(24)
      .meta({ description: "A call nobody decides within this many hours is denied." }),
  })
  .meta({ description: "An approval policy: allow, ask or deny each call, or decide by rules from the tool's hints and the arguments' taint." });

export type ApprovalPolicy = z.infer<typeof approvalPolicy>;
export type ApprovalPolicyInput = z.input<typeof approvalPolicy>;

/** A policy as a document or the registry stores it: a bare verdict (short for `{ decide }`) or a policy object. */
export const wiredPolicy = z.union([z.enum(["allow", "ask", "deny"]), approvalPolicy]);
export type WiredPolicy = z.input<typeof wiredPolicy>;

/**
 * A registry server's default approval policies (set on /servers by an
 * owner or editor): `policy` for every tool of the server, `tools` per tool
 * name (wins over `policy`). Applied where a workflow wires the server and
 * neither the agent node nor the edge sets a policy of its own.
 */
export const serverApprovalDefaults = z
  .strictObject({
    policy: wiredPolicy.optional().meta({ description: "The default for every tool of this server." }),
    tools: z
      .record(z.string().min(1, "a tool name is required").max(200, "a tool name is longer than 200 characters"), wiredPolicy)
      .optional()
      .meta({ description: "Per tool name: wins over `policy`." }),
  })
  .meta({ description: "A registry server's default approval policies: for every tool, and per tool." });
export type ServerApprovalDefaults = z.output<typeof serverApprovalDefaults>;
export type ServerApprovalDefaultsInput = z.input<typeof serverApprovalDefaults>;

/** The server default for one tool: its own entry, else the server-wide one; undefined when none is set. */
export function serverDefaultFor(defaults: ServerApprovalDefaultsInput | undefined, tool: string): { policy: unknown; scope: "tool" | "server" } | undefined {
  if (!defaults) return undefined;
  if (defaults.tools && Object.hasOwn(defaults.tools, tool)) return { policy: defaults.tools[tool], scope: "tool" };
  return defaults.policy === undefined ? undefined : { policy: defaults.policy, scope: "server" };
}

/** The policy a new workflow gets: a destructive tool, and any tool that is not read-only once the context is tainted, ask a person. */
export const defaultApprovalPolicy: ApprovalPolicy = approvalPolicy.parse({});

/** A short label for a policy, as the canvas badge and the Approvals page show it: "ask", "rules: tainted→ask, destructive→ask". */
export function policyLabel(policy: ApprovalPolicy): string {
  if (policy.decide !== "rules") return policy.decide;
  const parts = [
    policy.taintedWrite !== "allow" ? `tainted→${policy.taintedWrite}` : "",
    policy.destructive !== "allow" ? `destructive→${policy.destructive}` : "",
    policy.openWorld !== "allow" ? `open-world→${policy.openWorld}` : "",
  ].filter(Boolean);
  return parts.length ? `rules: ${parts.join(", ")}` : "allow";
}

/** The label of a policy as a workflow stores it (a bare verdict or a policy object), for a badge; null when none is set. */
export function wiredPolicyLabel(wired: unknown): string | null {
  if (wired === undefined) return null;
  const parsed = approvalPolicy.safeParse(typeof wired === "string" ? { decide: wired } : wired);
  return parsed.success ? policyLabel(parsed.data) : "invalid policy";
}
