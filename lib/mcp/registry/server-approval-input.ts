import type { z } from "zod";
import { type ServerApprovalDefaults, serverApprovalDefaults } from "../../manifest";

/** What the server page's approval form sends: the server-wide policy and the per-tool ones, each as JSON text ("" for none). */
export interface ServerApprovalForm {
  policy: string;
  tools: string;
}

export type ServerApprovalParse = { ok: true; approval: ServerApprovalDefaults | undefined } | { ok: false; field: string; message: string };

const policyWords = 'allow, ask, deny, or a policy object such as { "decide": "rules", "taintedWrite": "deny" }';

/**
 * The approval form of a registry server, checked: each part is JSON (or
 * empty), and together they pass the `serverApprovalDefaults` schema. A
 * problem names its field (`policy`, `tools`, `tools.send_email.timeoutHours`)
 * in words; nothing set at all is "no defaults" (undefined).
 *
 * @example parseServerApprovalForm({ policy: '"ask"', tools: '{"list_drafts": "allow"}' }) // { ok: true, approval: { policy: "ask", tools: { list_drafts: "allow" } } }
 */
export function parseServerApprovalForm(form: ServerApprovalForm): ServerApprovalParse {
  const input: Record<string, unknown> = {};
  for (const field of ["policy", "tools"] as const) {
    const text = typeof form[field] === "string" ? form[field].trim() : "";
    if (!text) continue;
    try {
      input[field] = JSON.parse(text);
    } catch (error) {
      return { ok: false, field, message: `${field}: not valid JSON (${(error as Error).message})` };
    }
  }
  if (input.tools !== undefined && (typeof input.tools !== "object" || input.tools === null || Array.isArray(input.tools))) {
    return { ok: false, field: "tools", message: 'tools: an object from tool name to policy, e.g. { "send_email": "ask" }' };
  }
  const parsed = serverApprovalDefaults.safeParse(input);
  if (!parsed.success) return { ok: false, ...problemOf(parsed.error) };
  const approval = parsed.data;
  const empty = approval.policy === undefined && Object.keys(approval.tools ?? {}).length === 0;
  return { ok: true, approval: empty ? undefined : { ...(approval.policy === undefined ? {} : { policy: approval.policy }), ...(approval.tools && Object.keys(approval.tools).length ? { tools: approval.tools } : {}) } };
}

function problemOf(error: z.ZodError): { field: string; message: string } {
  let issue = error.issues[0];
  let path = issue.path.map(String);
  // A policy object with a bad field: the object branch's own issue names it (`tools.send_email.decide`).
  if (issue.code === "invalid_union") {
    const inner = issue.errors.flat().find((candidate) => candidate.path.length > 0);
    if (inner) {
      path = [...path, ...inner.path.map(String)];
      issue = inner;
    }
  }
  const field = path.join(".") || "policy";
  if (issue.code === "invalid_union") return { field, message: `${field}: must be ${policyWords}` };
  if (issue.code === "invalid_value") return { field, message: `${field}: must be one of ${issue.values.map(String).join(", ")}` };
  if (issue.code === "unrecognized_keys") return { field, message: `${field}: ${issue.keys.map((key) => `'${key}'`).join(", ")} is not part of a policy (decide, taintedWrite, destructive, openWorld, timeoutHours)` };
  return { field, message: `${field}: ${issue.message}` };
}
