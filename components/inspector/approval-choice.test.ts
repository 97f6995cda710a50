import { describe, expect, it } from "vitest";
import { wiredPolicyLabel } from "@/lib/graph";
import { approvalChoices, choiceOf } from "./approval-choice";

describe("the inspector's approval choices", () => {
  it("shows a stored policy as its option, a hand-written one as custom, nothing as the default", () => {
    expect(choiceOf(undefined).value).toBe("");
    expect(choiceOf("ask").value).toBe("ask");
    expect(choiceOf({ decide: "ask" }).value).toBe("ask");
    expect(choiceOf({ taintedWrite: "deny" }).value).toBe("rules:tainted-deny");
    expect(choiceOf({ decide: "ask", timeoutHours: 2 })).toEqual({ value: "custom", label: "Custom: ask" });
    expect(choiceOf({ decide: "maybe" }).value).toBe("custom");
  });

  it("every offered policy is a valid one, and the badge says what it does", () => {
    for (const choice of approvalChoices) expect(choiceOf(choice.policy).value).toBe(choice.value);
    expect(wiredPolicyLabel(undefined)).toBeNull();
    expect(wiredPolicyLabel("deny")).toBe("deny");
    expect(wiredPolicyLabel({ decide: "rules", taintedWrite: "ask", destructive: "ask", openWorld: "ask" })).toBe("rules: tainted→ask, destructive→ask, open-world→ask");
  });
});
