import { configIssueInWords } from "./config-words";
import type { GraphProblem } from "./graph-problem";
import type { ConfigIssue } from "./node-type-info";
import type { ValidationContext } from "./validation-context";

/**
 * Each node's config against its type's config schema, one problem per
 * field: built-ins are checked in code, manifest nodes by the injected
 * validateConfig (skipped when none is given). Settings the schema does not
 * know are a warning: they are left over from an older version of the node.
 */
export function configProblems(context: ValidationContext): GraphProblem[] {
  return context.workflow.nodes.flatMap((node) => {
    const info = context.typeOf(node.id);
    if (!info || context.nodesById.get(node.id) !== node) return [];
    const issues = info.checkConfig
      ? info.checkConfig(node.config)
      : info.configSchema && context.options.validateConfig
        ? readConfigMessage(context.options.validateConfig(info.configSchema, node.config))
        : [];
    const problems = issues.map((issue): GraphProblem => ({
      code: "config-invalid",
      message: `${configIssueInWords(issue, info.configSchema)} (node "${node.id}"). ${issue.field ? "Change it" : "Change them"} in the inspector.`,
      nodeId: node.id,
      field: issue.field ? `config.${issue.field}` : "config",
      severity: "error",
    }));
    return [...problems, ...unknownSettings(context, node.id)];
  });
}

function unknownSettings(context: ValidationContext, nodeId: string): GraphProblem[] {
  const info = context.typeOf(nodeId);
  const node = context.nodesById.get(nodeId);
  if (!info || !node || info.checkConfig) return [];
  const known = new Set(Object.keys(info.configSchema?.properties ?? {}));
  return Object.keys(node.config)
    .filter((key) => !known.has(key))
    .map((key) => ({
      code: "config-unknown-setting",
      message: `Node "${nodeId}" has a setting "${key}" that its type (${info.title}) does not declare; it is ignored. Remove it.`,
      nodeId,
      field: `config.${key}`,
      severity: "warning" as const,
    }));
}

/**
 * Splits an ajv-style message into issues that name their field:
 * `/maxTurns must be <= 20` → maxTurns; `must have required property 'baseUrl'` → baseUrl;
 * `/headers/Accept must be string` → headers.Accept.
 */
export function readConfigMessage(message: string | null): ConfigIssue[] {
  if (message === null) return [];
  return message
    .split("; ")
    .filter((part) => part.trim() !== "")
    .map((part) => {
      const pointer = /^\/(\S*)\s+(.*)$/.exec(part);
      const text = pointer ? pointer[2] : part.replace(/^(arguments|value|data)\s+/, "");
      const named = /(?:required property|additional properties \(|additionalProperty:?)\s*'([^']+)'/.exec(text);
      const path = [...(pointer ? pointer[1].split("/").filter(Boolean) : []), ...(named ? [named[1]] : [])];
      return path.length > 0 ? { field: path.map(decodePointer).join("."), message: text } : { message: text };
    });
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
