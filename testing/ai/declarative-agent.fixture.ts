import { configValues } from "../../lib/manifest/config-values";
import { sharedSandbox } from "../../lib/sandbox";
import { declarativeProtocol } from "../../lib/ai/declarative-exchange";
import type { StreamCutting, WireReplyScript } from "./reply-script.fixture";
import type { Closable } from "./servers-closed-after-each.fixture";
import { shippedAgent } from "./shipped-agents.fixture";
import { startVendorServer, type Vendor, vendorBaseUrl } from "./vendor-servers.fixture";

/** The credential each shipped agent sends to its fixture server. */
const fixtureCredentials: Record<Vendor, Record<string, Record<string, string>>> = {
  openai: { openai: { apiKey: "sk-test" } },
  anthropic: { anthropic: { apiKey: "test-key" } },
};

export interface DeclarativeAgentOptions {
  vendor: Vendor;
  script: WireReplyScript;
  /** The shipped agent's streamed variant (the `<protocol>-stream` protocol). */
  streamed?: boolean;
  cutting?: StreamCutting;
  /** Config values on top of the fixture's base URL and `model: fixture-model`. */
  config?: Record<string, unknown>;
  /** Where the fixture server is registered, to be closed after the test (see serversClosedAfterEach). */
  servers: Closable[];
}

/**
 * TEST SUPPORT: the shipped openai-agent or anthropic-agent node, driven by
 * the declarative interpreter against its vendor's fixture server answering
 * `script`: only that server's origin is allowed, with the vendor's test key.
 *
 * @example
 * const { server, protocol, config } = await declarativeAgent({ vendor: "openai", script, servers });
 * const { result } = await driveAgent({ protocol, config, inputs: { prompt: "Hi" } });
 */
export async function declarativeAgent(options: DeclarativeAgentOptions) {
  const server = await startVendorServer(options.vendor, options.script, options.cutting);
  options.servers.push(server);
  const agent = await shippedAgent(`${options.vendor}-agent`, { streamed: options.streamed });
  const config = configValues(agent.manifest.config, { baseUrl: vendorBaseUrl(options.vendor, server), model: "fixture-model", ...options.config });
  const protocol = declarativeProtocol({
    run: agent.run,
    exchange: agent.exchange,
    context: { evaluator: await sharedSandbox(), credentials: fixtureCredentials[options.vendor], allowedOrigins: [server.url] },
  });
  return { server, protocol, config, systemPrompt: config.systemPrompt as string };
}
