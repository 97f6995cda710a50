import { describe, expect, it } from "vitest";
import { parseServerApprovalForm } from "./server-approval-input";

describe("the server page's approval form", () => {
  it("reads a server-wide policy and per-tool ones; nothing set is no defaults", () => {
    expect(parseServerApprovalForm({ policy: '"ask"', tools: '{ "list_drafts": "allow", "merge": { "decide": "rules", "destructive": "ask" } }' })).toEqual({
      ok: true,
      approval: { policy: "ask", tools: { list_drafts: "allow", merge: { decide: "rules", taintedWrite: "ask", destructive: "ask", openWorld: "allow", timeoutHours: 24 } } },
    });
    expect(parseServerApprovalForm({ policy: "", tools: "" })).toEqual({ ok: true, approval: undefined });
    expect(parseServerApprovalForm({ policy: "", tools: "{}" })).toEqual({ ok: true, approval: undefined });
  });

  it("names the field of bad input in words", () => {
    expect(parseServerApprovalForm({ policy: "ask", tools: "" })).toMatchObject({ ok: false, field: "policy", message: expect.stringMatching(/^policy: not valid JSON/) });
    expect(parseServerApprovalForm({ policy: '"sometimes"', tools: "" })).toMatchObject({ ok: false, field: "policy", message: expect.stringContaining("must be allow, ask, deny, or a policy object") });
    expect(parseServerApprovalForm({ policy: "", tools: '["send_email"]' })).toMatchObject({ ok: false, field: "tools" });
    expect(parseServerApprovalForm({ policy: "", tools: '{ "send_email": { "decide": "ask", "timeoutHours": 0 } }' })).toMatchObject({ ok: false, field: "tools.send_email.timeoutHours", message: "tools.send_email.timeoutHours: must be more than 0" });
    expect(parseServerApprovalForm({ policy: '{ "decide": "ask", "often": true }', tools: "" })).toMatchObject({ ok: false, field: "policy" });
  });
});
