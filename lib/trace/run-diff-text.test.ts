import { describe, expect, it } from "vitest";
import { diffRuns } from "./run-diff";
import { describeDiff } from "./run-diff-text";
import { nodeRunRecord, recordedTrace, runRecord, toolCallRecord } from "../../testing/trace/traces.fixture";

/** An agent's run of `count` calls; `edited` changes the result of the call at that number. */
function run(id: string, count: number, edited?: number) {
  const calls = Array.from({ length: count }, (_, index) => toolCallRecord(`${id}-${index}`, `${id}-agent`, "checkStock", 2 + index, index + 1, { result: { stock: index + 1 === edited ? 0 : 7 } }));
  return recordedTrace(runRecord(id), [nodeRunRecord(`${id}-agent`, "agent", 1, { nodeType: "offline-agent" })], calls);
}

describe("describeDiff", () => {
  it("prints the totals, the first divergence and the steps, folding long runs of identical ones", () => {
    const text = describeDiff(diffRuns(run("a", 20), run("b", 20, 12)));
    expect(text).toContain("first divergence: agent#1/call 12");
    expect(text).toMatch(/tool calls\s+20\s+20/);
    expect(text.split("\n").filter((line) => /^[=≠+−] /.test(line))).toEqual([
      "= agent#1  node agent (offline-agent)",
      "=   agent#1/call 11  call s/checkStock",
      "≠   agent#1/call 12  call s/checkStock",
      "=   agent#1/call 13  call s/checkStock",
      "=   agent#1/call 20  call s/checkStock",
    ]);
    expect(text).toContain("  … 10 identical steps (agent#1/call 1 … agent#1/call 10); --all shows them");
    expect(text).toContain("    result.stock: 7 → 0");
  });

  it("prints every step with all", () => {
    const lines = describeDiff(diffRuns(run("a", 20), run("b", 20, 12)), { all: true }).split("\n").filter((line) => /^[=≠+−] /.test(line));
    expect(lines).toHaveLength(21);
  });
});
