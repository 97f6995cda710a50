import { parseTemplate } from "../../../sandbox/template-syntax";
import type { LoadedNode } from "../../load-catalogue";
import { defineRule, type Finding } from "../rule";

const consumers = (node: LoadedNode) => (node.parts.interface?.serviceConnectors ?? []).filter((connector) => !connector.isService);

export const consumerWithoutExchange = defineRule({
  id: "consumer-without-exchange",
  severity: "error",
  reads: ["interface", "toolExchange"],
  summary: "A node with an isService: false mcp connector declares api/toolExchange.yaml (how its model API expresses a tool call).",
  check(node) {
    if (node.files.has("toolExchange")) return [];
    return (node.parts.interface?.serviceConnectors ?? []).flatMap((connector, index) =>
      connector.isService
        ? []
        : [{ in: "interface" as const, path: ["serviceConnectors", index, "isService"], message: `connector '${connector.name}' consumes tools (isService: false), so the node needs api/toolExchange.yaml; add one (e.g. \`$ref: openai-chat\`)` }],
    );
  },
});

export const exchangeWithoutConsumer = defineRule({
  id: "exchange-without-consumer",
  severity: "error",
  reads: ["interface", "toolExchange"],
  summary: "api/toolExchange.yaml needs an isService: false mcp connector for the tools it offers; its `from` names one.",
  check(node) {
    const exchange = node.parts.toolExchange;
    if (!exchange || !node.parts.interface) return [];
    const names = consumers(node).map((connector) => connector.name);
    if (names.length === 0) {
      return [{ in: "toolExchange", path: [], message: "the node declares a toolExchange but no connector with serviceType: mcp and isService: false; add one (conventionally named mcpService) to interface.yaml" }];
    }
    if (!names.includes(exchange.from)) {
      return [{ in: "toolExchange", path: ["from"], message: `from: '${exchange.from}' names no consuming connector; use one of: ${names.join(", ")}` }];
    }
    return [];
  },
});

export const exchangeIncomplete = defineRule({
  id: "exchange-incomplete",
  severity: "error",
  reads: ["toolExchange", "run"],
  summary: "A toolExchange either names an `adapter` or gives `tool`, `call` and `result` (directly or through `$ref`), and a declarative one needs an api/run.yaml to layer over.",
  check(node) {
    const exchange = node.parts.toolExchange;
    if (!exchange) return [];
    if (exchange.adapter) return [];
    const findings: Finding[] = [];
    const missing = (["tool", "call", "result"] as const).filter((key) => exchange[key] === undefined);
    if (missing.length) {
      findings.push({ in: "toolExchange", path: [], message: `missing ${missing.join(", ")}: give them, \`$ref\` a protocol from nodes/shared/, or name an adapter` });
    }
    if (!node.files.has("run")) {
      findings.push({ in: "toolExchange", path: [], message: "a declarative toolExchange layers over the node's last run call, but there is no api/run.yaml" });
    }
    return findings;
  },
});

/**
 * A loop limit must be a whole number with a floor, written literally or
 * taken from a config property whose schema guarantees it.
 */
function loopLimit(id: string, key: "maxTurns" | "stuckAfterRepeats", floor: number, meaning: string) {
  return defineRule({
    id,
    severity: "error",
    reads: ["toolExchange", "config"],
    summary: `\`${key}\` is a whole number ≥ ${floor} (${meaning}), literally or from an integer config property with minimum ≥ ${floor}.`,
    check(node) {
      const value = node.parts.toolExchange?.[key];
      if (value === undefined) return [];
      const finding = (message: string): Finding[] => [{ in: "toolExchange", path: [key], message }];
      if (typeof value === "number") {
        return Number.isInteger(value) && value >= floor ? [] : finding(`${key} must be a whole number ≥ ${floor} (${meaning}); got ${value}`);
      }
      let parsed;
      try {
        parsed = parseTemplate(value);
      } catch {
        return [];
      }
      if (parsed.kind !== "whole" || parsed.path.segments[0] !== "config" || parsed.path.segments.length !== 2) {
        return finding(`${key} must be a number or exactly "{{ config.<name> }}"; got ${JSON.stringify(value)}`);
      }
      const property = node.parts.config?.configSchema.properties[parsed.path.segments[1]];
      if (!property) return []; // template-unknown-config reports it
      // For an integer, exclusiveMinimum n means at least n + 1.
      const lowest = Math.max(property.minimum ?? -Infinity, property.exclusiveMinimum === undefined ? -Infinity : Math.floor(property.exclusiveMinimum) + 1);
      if (property.type !== "integer" || lowest < floor) {
        return finding(`${key} comes from config.${parsed.path.segments[1]}, which must be declared { type: integer, minimum: ${floor} } or more`);
      }
      return [];
    },
  });
}

export const maxTurnsRange = loopLimit("max-turns-range", "maxTurns", 1, "1 means one pass with no tool offered");
export const stuckAfterRepeatsRange = loopLimit("stuck-after-repeats-range", "stuckAfterRepeats", 2, "the Nth identical call is not run");
