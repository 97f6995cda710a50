import type { ConfigManifest } from "../manifest";
import { isExpression, renderValue, type Evaluator } from "../sandbox";

/**
 * Fills the node's template fields (`ui:field: template` in config.yaml):
 * a value written as `{{ inputs.x }}` or a `return` expression is computed
 * from what arrived on the node's inputs when it runs; other values are
 * kept as they are.
 *
 * @example templateConfig(config, { text: "{{ inputs.message.text }}" }, { message: { text: "hi" } }, evaluator) // { text: "hi" }
 */
export async function templateConfig(
  manifest: ConfigManifest | undefined,
  values: Record<string, unknown>,
  inputs: Record<string, unknown>,
  evaluator: Evaluator,
): Promise<Record<string, unknown>> {
  const result = { ...values };
  for (const [name, property] of Object.entries(manifest?.configSchema.properties ?? {})) {
    const value = values[name];
    if (property["ui:field"] !== "template" || typeof value !== "string" || !(value.includes("{{") || isExpression(value))) continue;
    result[name] = await renderValue(value, { inputs, config: values }, evaluator);
  }
  return result;
}
