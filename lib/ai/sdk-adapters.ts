import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { type BoundCredential, guardedWebFetch } from "../security";
import type { ModelProtocol } from "./model";
import { sdkProtocol } from "./sdk-protocol";

export type SdkAdapterName = "openai" | "openai-compatible" | "anthropic";

export interface SdkAdapterSettings {
  adapter: SdkAdapterName;
  /** The model id, e.g. gpt-4o-mini, claude-sonnet-4-5, llama3.1. */
  model: string;
  /**
   * Where the API lives, written as the shipped nodes write it: with /v1 for
   * OpenAI and compatible servers (https://api.openai.com/v1,
   * http://127.0.0.1:11434/v1), without it for Anthropic
   * (https://api.anthropic.com). Defaults to the vendor's own for openai and
   * anthropic; required for openai-compatible.
   */
  baseUrl?: string;
  apiKey?: string;
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
  /** Each model request's limit; default 120 s. */
  timeoutMs?: number;
  /** The private origins that may be reached, exactly (SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS, a test's fixture server). */
  allowedOrigins?: readonly string[];
  /** The node's credentials with the origins each may go to: a request elsewhere carrying the key is refused before it is sent. */
  credentials?: readonly BoundCredential[];
  onText?: (piece: string) => void;
}

/** Raised for settings that cannot work; the message says which setting and how to fix it. */
export class AdapterSettingsError extends Error {
  readonly code = "adapter-settings";
  constructor(message: string) {
    super(message);
    this.name = "AdapterSettingsError";
  }
}

/**
 * The AI SDK adapter an agent's toolExchange names (`adapter: openai |
 * openai-compatible | anthropic`). Requests go through the platform's URL
 * guard (see guardedWebFetch), and API keys come only from the settings —
 * never from the SDK's own reading of process.env.
 *
 * @example sdkAdapter({ adapter: "openai-compatible", model: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1", allowedOrigins: ["http://127.0.0.1:11434"] })
 */
export function sdkAdapter(settings: SdkAdapterSettings): ModelProtocol {
  return sdkProtocol({
    label: `${settings.adapter} (AI SDK adapter${settings.stream ? ", streamed" : ""})`,
    model: sdkLanguageModel(settings),
    systemPrompt: settings.systemPrompt,
    temperature: settings.temperature,
    maxOutputTokens: settings.maxTokens,
    stream: settings.stream,
    timeoutMs: settings.timeoutMs,
    onText: settings.onText,
  });
}

export function sdkLanguageModel(settings: SdkAdapterSettings): LanguageModel {
  if (!settings.model) throw new AdapterSettingsError(`the ${settings.adapter} adapter needs a model (config.model)`);
  const fetch = guardedWebFetch({ allowedOrigins: settings.allowedOrigins, sensitiveHeaders: ["x-api-key", "api-key"], credentials: settings.credentials });
  const baseUrl = settings.baseUrl?.replace(/\/+$/, "");
  switch (settings.adapter) {
    case "openai":
      if (!settings.apiKey) throw new AdapterSettingsError("the openai adapter needs an API key (the node's credential apiKey); for a local server use adapter: openai-compatible");
      return createOpenAI({ baseURL: baseUrl || undefined, apiKey: settings.apiKey, fetch }).chat(settings.model);
    case "openai-compatible":
      if (!baseUrl) throw new AdapterSettingsError("the openai-compatible adapter needs a base URL (config.baseUrl), e.g. http://127.0.0.1:11434/v1");
      // Without an apiKey no Authorization header is sent (local servers need none).
      return createOpenAICompatible({ name: "openai-compatible", baseURL: baseUrl, apiKey: settings.apiKey || undefined, includeUsage: true, fetch }).chatModel(settings.model);
    case "anthropic":
      if (!settings.apiKey) throw new AdapterSettingsError("the anthropic adapter needs an API key (the node's credential apiKey)");
      return createAnthropic({ baseURL: baseUrl ? (baseUrl.endsWith("/v1") ? baseUrl : `${baseUrl}/v1`) : undefined, apiKey: settings.apiKey, fetch })(settings.model);
  }
}
