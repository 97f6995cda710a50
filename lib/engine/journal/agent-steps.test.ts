import { describe, expect, it } from "vitest";
import type { Conversation } from "../../ai/model";
import { TaintRegistry } from "../../trace/taint-registry";
import { AgentSteps } from "./agent-steps";
import { memoryJournal } from "./memory-journal";
import { StepRecorder } from "./step-recorder";

describe("an agent node run's journalled conversation", () => {
  it("passes a result's replacement through (search_tools' summary reaches the model's history)", async () => {
    const replaced: Array<[string, string]> = [];
    const inner: Conversation = { turn: async () => ({ text: "done", toolCalls: [] }), addResults: () => {}, replaceResult: (id, output) => void replaced.push([id, output]) };
    const recorder = new StepRecorder("run-1", memoryJournal({ toolCall: () => {} }), (value) => value);
    const steps = new AgentSteps({ recorder, nodeRunKey: "agent#1", nodeId: "agent", protocol: "scripted", taint: new TaintRegistry("run-1", { emit: () => {} }) });
    const wrapped = steps.conversation(inner);
    await wrapped.replaceResult?.("call-1", "3 tools found: a, b, c");
    expect(replaced).toEqual([["call-1", "3 tools found: a, b, c"]]);
  });
});
