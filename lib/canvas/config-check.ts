import { type ConfigIssue, type ConfigValidator, type NodeTypeInfo, readConfigMessage } from "../graph";
import { checkArguments } from "../manifest/browser";

/**
 * Checks a config against a JSON Schema the way a run reads it: defaults
 * filled in first (on a copy), so a required property with a default passes.
 * The same check the server's validation uses, so the canvas and a run agree.
 */
export const validateConfig: ConfigValidator = (schema, value) => {
  const checked = checkArguments(schema, value);
  return checked.ok ? null : checked.message;
};

/**
 * What is wrong with one node's config, field by field (`field` is a dot
 * path inside the config): the inspector shows each message by its field
 * as the author types.
 */
export function configIssues(info: Pick<NodeTypeInfo, "checkConfig" | "configSchema">, config: Record<string, unknown>): ConfigIssue[] {
  if (info.checkConfig) return info.checkConfig(config);
  if (!info.configSchema) return [];
  return readConfigMessage(validateConfig(info.configSchema, config));
}
