import { beforeAll, describe, expect, it } from "vitest";
import { startAnthropicMessagesServer } from "../../testing/ai/anthropic-messages-server.fixture";
import { driveAgent } from "../../testing/ai/drive-agent.fixture";
import { startOpenAIChatServer } from "../../testing/ai/openai-chat-server.fixture";
import { serversClosedAfterEach } from "../../testing/ai/servers-closed-after-each.fixture";
import { shippedAgent } from "../../testing/ai/shipped-agents.fixture";
import type { ToolExchangeManifest } from "../manifest";
import { configValues } from "../manifest/config-values";
import { sharedSandbox, type Evaluator } from "../sandbox";
import type { CallContext } from "../calls/execute-call";
import { resolveModel } from "./model-resolver";

let evaluator: Evaluator;
beforeAll(async () => {
  evaluator = await sharedSandbox();
});
const servers = serversClosedAfterEach();

/** A shipped agent's model request, its toolExchange optionally switched to an adapter. */
async function request(name: "openai-agent" | "anthropic-agent", options: { adapter?: ToolExchangeManifest["adapter"]; config?: Record<string, unknown>; context?: Partial<CallContext> }) {
  const { manifest } = await shippedAgent(name);
  const exchange = options.adapter ? { ...manifest.toolExchange!, adapter: options.adapter } : manifest.toolExchange!;
  return {
    nodeId: "agent",
    manifest: { ...manifest, toolExchange: exchange },
    exchange,
    config: configValues(manifest.config, options.config),
    callContext: { evaluator, ...options.context },
  };
}

describe("resolveModel", () => {
  it("chooses the declarative interpreter for the shipped agents and the offline model for adapter: offline", async () => {
    expect(resolveModel(await request("openai-agent", {})).label).toBe("declarative toolExchange");
    expect(resolveModel(await request("openai-agent", { adapter: "offline" })).label).toMatch(/offline model/);
  });

  it("builds the openai-compatible adapter from the node's config and credential, streamed when config.stream is true", async () => {
    const server = await startOpenAIChatServer([{ text: "Plain." }, { text: "Streamed." }]);
    servers.push(server);
    for (const stream of [false, true]) {
      const protocol = resolveModel(
        await request("openai-agent", {
          adapter: "openai-compatible",
          config: { baseUrl: `${server.url}/v1`, model: "llama3.1", temperature: 0.7, stream },
          context: { credentials: { openai: { apiKey: "sk-node" } }, allowedOrigins: [server.url] },
        }),
      );
      expect(protocol.label).toBe(`openai-compatible (AI SDK adapter${stream ? ", streamed" : ""})`);
      const { result } = await driveAgent({ protocol, inputs: { prompt: "Hello?" }, instructions: "Be brief." });
      expect(result).toMatchObject({ status: "completed", text: stream ? "Streamed." : "Plain." });
    }
    const [plain, streamed] = server.requests;
    expect(plain.headers.authorization).toBe("Bearer sk-node");
    expect(plain.body).toMatchObject({ model: "llama3.1", temperature: 0.7, messages: [{ role: "system", content: expect.stringMatching(/^You are a helpful assistant.*\n\nBe brief\.$/s) }, { role: "user", content: "Hello?" }] });
    expect(plain.body.stream).not.toBe(true);
    expect(streamed.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("builds the anthropic adapter: the node's base URL without /v1, maxTokens as max_tokens, the key as x-api-key", async () => {
    const server = await startAnthropicMessagesServer([{ text: "Hi." }]);
    servers.push(server);
    const protocol = resolveModel(
      await request("anthropic-agent", {
        adapter: "anthropic",
        config: { baseUrl: server.url, model: "claude-sonnet-4-5", maxTokens: 512 },
        context: { credentials: { anthropic: { apiKey: "sk-ant" } }, allowedOrigins: [server.url] },
      }),
    );
    const { result } = await driveAgent({ protocol, inputs: { prompt: "Hello?" } });
    expect(result).toMatchObject({ status: "completed", text: "Hi." });
    expect(server.requests[0]).toMatchObject({ path: "/v1/messages", headers: { "x-api-key": "sk-ant" }, body: { model: "claude-sonnet-4-5", max_tokens: 512 } });
  });

  it("keeps the run's URL guard: without the fixture's origin allowed the adapter reaches nothing on loopback", async () => {
    const server = await startOpenAIChatServer([{ text: "never" }]);
    servers.push(server);
    const protocol = resolveModel(await request("openai-agent", { adapter: "openai-compatible", config: { baseUrl: `${server.url}/v1` } }));
    const { result } = await driveAgent({ protocol, inputs: { prompt: "Hello?" } });
    expect(result.status).toBe("failed");
    expect(server.requests).toEqual([]);
  });

  it("says which setting an adapter lacks", async () => {
    await expect(request("anthropic-agent", { adapter: "anthropic" }).then(resolveModel)).rejects.toThrow(/anthropic adapter needs an API key/);
  });
});
