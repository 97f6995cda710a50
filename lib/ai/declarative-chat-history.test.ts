import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { type ChatHistoryTurn, defaultHistoryWindow, historyMessages } from "../engine/chat/chat-history";
import { driveAgent } from "../../testing/ai/drive-agent.fixture";
import { declarativeAgent } from "../../testing/ai/declarative-agent.fixture";
import { serversClosedAfterEach } from "../../testing/ai/servers-closed-after-each.fixture";
import { type ShippedAgentName, shippedModelAgents } from "../../testing/ai/shipped-agents.fixture";
import type { WireRequest } from "../../testing/ai/wire-server.fixture";

// Every shipped real-model agent sends a chat thread's history to its provider, in the provider's
// own messages, before the new prompt: a three-turn thread against each vendor's fixture server.

const servers = serversClosedAfterEach();

const said = ["My name is Ada.", "I live in Lisbon.", "What is my name, and where do I live?"];
const answered = ["Hello Ada.", "Lisbon is lovely.", "You are Ada, from Lisbon."];

/** Three turns of one thread, each a run of the agent given the turns before it, as the chat worker does. */
async function threeTurnThread(node: ShippedAgentName, streamed: boolean) {
  const vendor = shippedModelAgents[node];
  const script = answered.map((text) => ({ text }));
  const { server, protocol, config, systemPrompt } = await declarativeAgent({ vendor, node, script, streamed, servers });
  const earlier: ChatHistoryTurn[] = [];
  for (const [index, prompt] of said.entries()) {
    const history: ModelMessage[] = historyMessages(earlier, defaultHistoryWindow);
    const { result } = await driveAgent({ protocol, config, inputs: { prompt }, history });
    expect(result).toMatchObject({ status: "completed", text: answered[index] });
    earlier.push({ user: prompt, assistant: result.text });
  }
  return { requests: server.requests, systemPrompt };
}

/** The conversation each request carried, without the system message (OpenAI sends it first in `messages`). */
const conversationOf = (request: WireRequest) => (request.body.messages as Array<{ role: string }>).filter((message) => message.role !== "system");

const thirdTurn = [
  { role: "user", content: said[0] },
  { role: "assistant", content: answered[0] },
  { role: "user", content: said[1] },
  { role: "assistant", content: answered[1] },
  { role: "user", content: said[2] },
];

describe.each(Object.keys(shippedModelAgents) as ShippedAgentName[])("nodes/%s sends a chat thread's history", (node) => {
  it.each([false, true])("in order, before the new prompt (streamed: %s)", async (streamed) => {
    const { requests, systemPrompt } = await threeTurnThread(node, streamed);

    expect(requests).toHaveLength(3);
    expect(conversationOf(requests[0])).toEqual(thirdTurn.slice(0, 1));
    expect(conversationOf(requests[1])).toEqual(thirdTurn.slice(0, 3));
    expect(conversationOf(requests[2])).toEqual(thirdTurn);
    if (shippedModelAgents[node] === "openai") {
      // OpenAI's chat completions: the system message first, once, then the thread.
      expect(requests[2].body.messages[0]).toEqual({ role: "system", content: systemPrompt });
      expect(requests[2].body.messages).toHaveLength(thirdTurn.length + 1);
    } else {
      // Anthropic's Messages: the system prompt is its own field, never a message.
      expect(requests[2].body.system).toBe(systemPrompt);
    }
  });
});

describe("outside a chat", () => {
  it("sends the prompt alone when there is no history", async () => {
    const { server, protocol, config } = await declarativeAgent({ vendor: "anthropic", script: [{ text: "Hi." }], servers });
    await driveAgent({ protocol, config, inputs: { prompt: "Hello" } });
    expect(server.requests[0].body.messages).toEqual([{ role: "user", content: "Hello" }]);
  });
});
