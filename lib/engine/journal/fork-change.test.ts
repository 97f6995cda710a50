import { describe, expect, it } from "vitest";
import { describeForkChange, readForkChange, stepNode } from "./fork-change";

describe("fork changes", () => {
  it("finds the node of a step key, and whether it is inside a task's sub-flow", () => {
    expect(stepNode("agent#1/t3/c0")).toEqual({ nodeId: "agent", nested: false });
    expect(stepNode("merge#2/step")).toEqual({ nodeId: "merge", nested: false });
    expect(stepNode("0b6f3c1e-1111-5222-8333-444455556666/researcher#1/t1")).toEqual({ nodeId: "researcher", nested: true });
    expect(stepNode("context/abc")).toBeNull();
  });

  it("says what a fork changed, and reads the stored column defensively", () => {
    expect(describeForkChange({ kind: "model", nodeId: "agent", from: "gpt-4o-mini", model: "gpt-4o" })).toBe("with model gpt-4o for agent (was gpt-4o-mini)");
    expect(describeForkChange({ kind: "prompt", nodeId: "agent", prompt: "x".repeat(100) })).toBe(`with a different system prompt for agent: “${"x".repeat(79)}…”`);
    expect(describeForkChange({ kind: "document", source: "workflow", changedNodes: ["writer"] })).toBe("with the workflow's current saved version (changed: writer)");
    expect(describeForkChange(null)).toBe("as recorded or with an edited value");
    expect(readForkChange('{"kind":"result"}')).toEqual({ kind: "result" });
    expect(readForkChange("{oops")).toBeNull();
    expect(readForkChange(null)).toBeNull();
  });
});
