import { configValues } from "../../lib/manifest/config-values";
import { sharedSandbox } from "../../lib/sandbox";
import { declarativeProtocol } from "../../lib/ai/declarative-exchange";
import type { StreamCutting, WireReplyScript } from "./reply-script.fixture";
import type { Closable } from "./servers-closed-after-each.fixture";
import { shippedAgent, type ShippedAgentName } from "./shipped-agents.fixture";
import { startVendorServer, type Vendor, vendorBaseUrl } from "./vendor-servers.fixture";

/** The key each vendor's fixture server is sent. */
const fixtureKeys: Record<Vendor, string> = { openai: "sk-test", anthropic: "test-key" };

export interface DeclarativeAgentOptions {
  vendor: Vendor;
  /** The shipped node that speaks `vendor`'s format; `<vendor>-agent` when left out. */
  node?: ShippedAgentName;
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
 * TEST SUPPORT: a shipped model agent node (openai-agent by default), driven by
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
  const node = options.node ?? `${options.vendor}-agent`;
  const agent = await shippedAgent(node, { streamed: options.streamed });
  // Each node reads its key from the credential named after its provider (credentials.gemini.apiKey…).
  const credentials = { [node.replace(/-agent$/, "")]: { apiKey: fixtureKeys[options.vendor] } };
  const config = configValues(agent.manifest.config, { baseUrl: vendorBaseUrl(options.vendor, server), model: "fixture-model", ...options.config });
  const protocol = declarativeProtocol({
    run: agent.run,
    exchange: agent.exchange,
    context: { evaluator: await sharedSandbox(), credentials, allowedOrigins: [server.url] },
  });
  return { server, protocol, config, systemPrompt: config.systemPrompt as string };
}
