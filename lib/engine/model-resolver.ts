import { declarativeProtocol } from "../ai/declarative-exchange";
import type { ModelProtocol } from "../ai/model";
import { offlineModel } from "../ai/offline-model";
import type { ModelRequest } from "./environment";

/**
 * The model protocol of an agent node, chosen by its toolExchange: the
 * offline model, an SDK adapter, or the declarative keys over the node's
 * last run call.
 */
export function resolveModel(request: ModelRequest): ModelProtocol {
  const { exchange, manifest } = request;
  switch (exchange.adapter) {
    case "offline":
      return offlineModel();
    case undefined:
      if (!manifest.run?.length) throw new Error(`${manifest.interface.name}: a declarative toolExchange needs api/run.yaml`);
      return declarativeProtocol({ run: manifest.run, exchange, context: request.callContext });
    default:
      throw new Error(`the '${exchange.adapter}' adapter is not available in this build; use the declarative protocol (\`$ref: openai-chat\`)`);
  }
}
