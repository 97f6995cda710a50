import { declarativeProtocol, type ModelProtocol, offlineModel, sdkAdapter, type SdkAdapterName, type SdkAdapterSettings } from "../ai";
import type { NodeManifest } from "../manifest";
import type { Credentials } from "../calls";
import type { ModelRequest } from "./environment";

/**
 * The model protocol of an agent node, chosen by its toolExchange: the
 * offline model, an AI SDK adapter, or the declarative keys over the node's
 * last run call.
 */
export function resolveModel(request: ModelRequest): ModelProtocol {
  const { exchange, manifest } = request;
  switch (exchange.adapter) {
    case "offline":
      return offlineModel(request.onText ? { onText: request.onText } : {});
    case "openai":
    case "openai-compatible":
    case "anthropic":
      return sdkAdapter(adapterSettings(exchange.adapter, request));
    case undefined:
      if (!manifest.run?.length) throw new Error(`${manifest.interface.name}: a declarative toolExchange needs api/run.yaml`);
      return declarativeProtocol({ run: manifest.run, exchange, context: request.callContext });
  }
}

/**
 * An adapter's settings from the node, read as the shipped agents name
 * them: config `model`, `baseUrl`, `systemPrompt`, `temperature`,
 * `maxTokens` and `stream` (true: each turn is streamed), and the `apiKey`
 * field of the node's credential. The URL guard settings are the run's.
 */
export function adapterSettings(adapter: SdkAdapterName, request: ModelRequest): SdkAdapterSettings {
  const { config, callContext } = request;
  const onEvent = callContext.onEvent;
  return {
    adapter,
    model: text(config.model) ?? "",
    baseUrl: text(config.baseUrl),
    apiKey: apiKeyOf(request.manifest, callContext.credentials ?? {}),
    systemPrompt: text(config.systemPrompt),
    temperature: number(config.temperature),
    maxTokens: number(config.maxTokens),
    // A chat following the run reads the text as it comes: the turn is streamed then, whatever the node's setting.
    stream: config.stream === true || request.onText !== undefined,
    allowedOrigins: callContext.allowedOrigins,
    credentials: callContext.boundCredentials,
    onText: request.onText ?? (onEvent ? (piece) => onEvent({ type: "text-delta", text: piece }) : undefined),
  };
}

/** The node's API key: the `apiKey` field of its declared credentials, in the order declared. */
function apiKeyOf(manifest: NodeManifest, credentials: Credentials): string | undefined {
  const declared = manifest.interface.credentials.map((credential) => credential.name);
  for (const name of declared) {
    const key = credentials[name]?.apiKey;
    if (key) return key;
  }
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function number(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
