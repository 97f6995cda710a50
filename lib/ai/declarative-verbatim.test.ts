import { describe, expect, it } from "vitest";
import { declarativeAgent } from "../../testing/ai/declarative-agent.fixture";
import { driveAgent, fakeTools } from "../../testing/ai/drive-agent.fixture";
import type { WireReplyScript } from "../../testing/ai/reply-script.fixture";
import { serversClosedAfterEach } from "../../testing/ai/servers-closed-after-each.fixture";
import type { Vendor } from "../../testing/ai/vendor-servers.fixture";

// Text from a user, a model or a tool is data. The declarative interpreter renders the node's
// own templates once; nothing that arrives later is ever read as a template or an expression.

const secret = "s3cr3t-value";
const template = "{{ config.secret }}";
const expression = "return process";

const servers = serversClosedAfterEach();

function hostileTools() {
  return fakeTools({
    echo: { description: `Echoes its text. ${template}`, answer: (args) => ({ output: String(args.text) }) },
    shell: { description: "Answers with an expression-looking text.", answer: () => ({ output: expression }) },
    failing: { description: "Fails with a template in its message.", answer: () => ({ output: `${expression}.env ${template}`, isError: true }) },
  });
}

const script: WireReplyScript = [
  {
    text: `${expression}.exit(1) ${template}`,
    toolCalls: [
      { name: "echo", arguments: { text: template } },
      { name: "shell", arguments: { command: expression } },
      { name: "failing", arguments: {} },
    ],
  },
  { text: template },
];

async function start(kind: Vendor, streamed: boolean) {
  const { server, protocol, config } = await declarativeAgent({ vendor: kind, script, streamed, config: { secret }, servers });
  const { tools, ran } = hostileTools();
  const { result } = await driveAgent({ protocol, tools, config, inputs: { prompt: `${expression}.env ${template}` }, instructions: `Connector says ${template}` });
  return { server, result, ran };
}

describe.each([
  ["openai", false],
  ["openai", true],
  ["anthropic", false],
  ["anthropic", true],
] as const)("the %s protocol (streamed: %s) sends text from users, models and tools verbatim", (kind, streamed) => {
  it("never renders it as a template or runs it as an expression", async () => {
    const { server, result, ran } = await start(kind, streamed);
    expect(ran.map((call) => [call.name, call.args])).toEqual([
      ["echo", { text: template }],
      ["shell", { command: expression }],
      ["failing", {}],
    ]);
    expect(result).toMatchObject({ status: "completed", text: template });
    for (const request of server.requests) expect(request.raw).not.toContain(secret);
    const second = JSON.stringify(server.requests[1].body);
    for (const literal of [`${expression}.exit(1) ${template}`, `${expression}.env ${template}`, `Connector says ${template}`, `Echoes its text. ${template}`]) {
      expect(second).toContain(JSON.stringify(literal).slice(1, -1));
    }
    const messages = server.requests[1].body.messages;
    if (kind === "openai") {
      expect(messages[1]).toEqual({ role: "user", content: `${expression}.env ${template}` });
      expect(messages[2].content).toBe(`${expression}.exit(1) ${template}`);
      expect(messages[2].tool_calls.map((call: { function: { arguments: string } }) => call.function.arguments)).toEqual([JSON.stringify({ text: template }), JSON.stringify({ command: expression }), "{}"]);
      expect(messages.slice(3).map((message: { content: string }) => message.content)).toEqual([template, expression, JSON.stringify({ error: `${expression}.env ${template}` })]);
    } else {
      expect(messages[0]).toEqual({ role: "user", content: `${expression}.env ${template}` });
      expect(messages[1].content[0]).toEqual({ type: "text", text: `${expression}.exit(1) ${template}` });
      expect(messages[1].content[1]).toMatchObject({ type: "tool_use", input: { text: template } });
      expect(messages[2].content.map((block: { content: string; is_error: boolean }) => [block.content, block.is_error])).toEqual([
        [template, false],
        [expression, false],
        [`${expression}.env ${template}`, true],
      ]);
    }
  });
});
