import path from "node:path";
import { type CatalogueNode, lintNodes, loadCatalogue, type NodeManifest, toolExchangeManifest, type RunManifest, type ToolExchangeManifest } from "../../lib/manifest";
import { resolveRefs } from "../../lib/manifest/resolve-refs";

/** The shipped agent nodes that speak a real model's API, each through its vendor's wire format. */
export const shippedModelAgents = { "openai-agent": "openai", "gemini-agent": "openai", "mistral-agent": "openai", "ollama-agent": "openai", "anthropic-agent": "anthropic" } as const;
export type ShippedAgentName = keyof typeof shippedModelAgents;

/** An agent node as shipped in nodes/, or its streamed variant. */
export interface ShippedAgent {
  manifest: NodeManifest;
  run: RunManifest;
  exchange: ToolExchangeManifest;
}

const nodesDir = path.resolve("nodes");
let catalogue: Promise<{ nodes: CatalogueNode[] }> | undefined;

/**
 * TEST SUPPORT: the shipped agent node `name` (openai-agent,
 * anthropic-agent, …) read from nodes/ as the engine reads it. With
 * `streamed`, its last run call asks for a stream (`stream: true`,
 * transport sse, and for OpenAI `stream_options.include_usage`) and its
 * toolExchange is the shipped `<protocol>-stream` protocol with the node's
 * own local keys on top, so the tests drive the shipped stream protocols
 * exactly as a node author would use them.
 */
export async function shippedAgent(name: ShippedAgentName, options: { streamed?: boolean } = {}): Promise<ShippedAgent> {
  catalogue ??= lintNodes(nodesDir);
  const node = (await catalogue).nodes.find((candidate) => candidate.name === name);
  if (!node?.manifest?.run || !node.manifest.toolExchange) throw new Error(`nodes/${name} is missing or unusable`);
  const manifest = node.manifest;
  if (!options.streamed) return { manifest, run: manifest.run!, exchange: manifest.toolExchange! };
  const openai = shippedModelAgents[name] === "openai";
  const stem = openai ? "openai-chat-stream" : "anthropic-messages-stream";
  const { protocols } = await loadCatalogue(nodesDir);
  const protocol = protocols.get(stem);
  if (!protocol) throw new Error(`nodes/shared/${stem}.yaml is missing`);
  const resolved = resolveRefs(protocol, protocols);
  if (resolved.problems.length) throw new Error(`nodes/shared/${stem}.yaml: ${resolved.problems.map((problem) => problem.message).join("; ")}`);
  const exchange = toolExchangeManifest.parse({ ...(resolved.value as object), maxTurns: manifest.toolExchange!.maxTurns, stuckAfterRepeats: manifest.toolExchange!.stuckAfterRepeats });
  const run = manifest.run!.map((call, index, calls) => {
    if (index !== calls.length - 1) return call;
    const body = call.body as Record<string, unknown>;
    const streamBody = openai ? { ...body, stream: true, stream_options: { include_usage: true } } : { ...body, stream: true };
    return { ...call, transport: "sse" as const, body: streamBody };
  });
  return { manifest, run, exchange };
}
