import { dynamicTool, generateText, jsonSchema, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "./model";
import { recordingModel, type RecordedStep as Step } from "../../testing/ai/recording-model.fixture";
import { sdkProtocol } from "./sdk-protocol";

// The SDK warns about the test model's unknown provider; the tests do not need that noise.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const tools: ToolDefinition[] = [
  { name: "findPlace", description: "Find a place.", parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  { name: "getForecast", description: "Forecast.", parameters: { type: "object", properties: { lat: { type: "number" } } } },
];

const script: Step[] = [
  { text: "Checking.", calls: [{ id: "a", name: "findPlace", input: '{"name":"Atlantis"}' }, { id: "b", name: "findPlace", input: '{"name":"Lisbon"}' }] },
  { calls: [{ id: "c", name: "getForecast", input: '{"lat":38.7}' }] },
  { text: "Sunny." },
];

/** Drives a conversation through the adapter: each call answered, the second one failing. */
async function throughAdapter(model: never) {
  const conversation = await sdkProtocol({ label: "test", model, systemPrompt: "Be terse." }).start({ instructions: "Call findPlace first.", config: {}, inputs: { prompt: "Weather in Lisbon?" } });
  for (let index = 0; index < 10; index++) {
    const turn = await conversation.turn(index < 2 ? tools : []);
    if (turn.toolCalls.length === 0) return turn;
    conversation.addResults(turn, turn.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments, output: call.id === "b" ? "no such place" : `{"ok":"${call.id}"}`, isError: call.id === "b" })));
  }
  throw new Error("the conversation did not end");
}

/** The same conversation the way the adapter used to hold it: the whole ModelMessage history handed to generateText every turn. */
async function wholeHistoryEachTurn(model: never) {
  const messages: ModelMessage[] = [{ role: "user", content: "Weather in Lisbon?" }];
  const toolSet = Object.fromEntries(tools.map((tool) => [tool.name, dynamicTool({ description: tool.description, inputSchema: jsonSchema(tool.parameters as never) })]));
  for (let index = 0; index < 10; index++) {
    const step = await generateText({ model, instructions: "Be terse.\n\nCall findPlace first.", messages: [...messages], tools: toolSet, toolChoice: index < 2 ? "auto" : "none", maxRetries: 2 });
    messages.push(...step.responseMessages.filter((message) => message.role === "assistant"));
    if (step.toolCalls.length === 0) return;
    messages.push({
      role: "tool",
      content: step.toolCalls.map((call) => ({
        type: "tool-result" as const, toolCallId: call.toolCallId, toolName: call.toolName,
        output: call.toolCallId === "b" ? { type: "error-text" as const, value: "no such place" } : { type: "text" as const, value: `{"ok":"${call.toolCallId}"}` },
      })),
    });
  }
}

describe("sdkProtocol keeps the provider's message list", () => {
  it("sends the provider the same messages as handing the SDK the whole history each turn", async () => {
    const kept = recordingModel(script);
    const turn = await throughAdapter(kept.model);
    expect(turn.text).toBe("Sunny.");
    const whole = recordingModel(script);
    await wholeHistoryEachTurn(whole.model);
    expect(kept.prompts).toHaveLength(3);
    expect(kept.prompts).toEqual(whole.prompts);
    expect(kept.prompts[2]).toHaveLength(6); // system, user, assistant, tool, assistant, tool
  });

  it("appends to one list instead of copying the conversation on every turn", async () => {
    const kept = recordingModel(script);
    await throughAdapter(kept.model);
    expect(kept.arrays[1]).toBe(kept.arrays[0]);
    expect(kept.arrays[2]).toBe(kept.arrays[0]);
  });

  it("puts a retried request's new messages in once", async () => {
    const retried = recordingModel(script, { failFirstRequestOfTurn: 1 });
    await throughAdapter(retried.model);
    const plain = recordingModel(script);
    await throughAdapter(plain.model);
    expect(retried.prompts).toEqual(plain.prompts);
  });
});
