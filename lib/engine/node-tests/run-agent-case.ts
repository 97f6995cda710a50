import type { ModelProtocol } from "../../ai";
import { runAgentLoop } from "../agent/agent-loop";
import { completionOutputs, loopLimits } from "../agent/agent-settings";
import type { ModelRequest } from "../environment";
import { resolveModel } from "../model-resolver";
import type { AgentCaseRunner } from "./run-node-tests";

/**
 * Runs an agent node's test.yaml case through the real agent path: its
 * model protocol from `resolveModel` (declarative, adapter or offline) and
 * the platform's turn loop, with no tools wired — one plain request to the
 * case's fixture server (streamed when the node's call streams and the
 * fixture gives `events`). The outputs are the node's `from: complete`
 * events, as a run would emit them.
 *
 * @example runNodeTests(nodes, { evaluator, runAgent: agentCaseRunner() })
 */
export function agentCaseRunner(options: { models?: (request: ModelRequest) => ModelProtocol } = {}): AgentCaseRunner {
  const models = options.models ?? resolveModel;
  return async ({ manifest, config, inputs, credentials, evaluator, allowedOrigins }) => {
    const exchange = manifest.toolExchange;
    if (!exchange) return { isError: true, message: `${manifest.interface.name} has no toolExchange` };
    const scope = { config, inputs };
    const callContext = { evaluator, credentials, allowedOrigins };
    let protocol: ModelProtocol;
    try {
      protocol = models({ nodeId: manifest.interface.name, manifest, exchange, config, callContext });
    } catch (error) {
      return { isError: true, message: (error as Error).message };
    }
    const result = await runAgentLoop({
      conversation: await protocol.start({ instructions: "", config, inputs }),
      tools: [],
      ...(await loopLimits(exchange, scope, evaluator)),
      nodeRunId: `test:${manifest.interface.name}`,
      callerNodeId: manifest.interface.name,
      recordPlatformCall: () => {},
    });
    if (result.status !== "completed") return { isError: true, message: result.error ?? `the agent ended as ${result.status}` };
    return { outputs: await completionOutputs(manifest.events, scope, result.text, evaluator) };
  };
}
