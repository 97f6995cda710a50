import { startAnthropicMessagesServer } from "./anthropic-messages-server.fixture";
import { startOpenAIChatServer } from "./openai-chat-server.fixture";
import type { StreamCutting, WireReplyScript } from "./reply-script.fixture";
import type { WireServer } from "./wire-server.fixture";

/** The two wire formats the fixture servers speak. */
export type Vendor = "openai" | "anthropic";

/** TEST DOUBLE: the vendor's fixture server (OpenAI chat completions or Anthropic Messages) answering `script`. */
export function startVendorServer(vendor: Vendor, script: WireReplyScript, cutting?: StreamCutting): Promise<WireServer> {
  return vendor === "openai" ? startOpenAIChatServer(script, cutting) : startAnthropicMessagesServer(script, cutting);
}

/** The base URL a client of `vendor` is given for the fixture server: OpenAI's includes /v1, Anthropic's does not. */
export function vendorBaseUrl(vendor: Vendor, server: WireServer): string {
  return vendor === "openai" ? `${server.url}/v1` : server.url;
}
