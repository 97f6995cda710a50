import type { ConfigManifest } from "./schemas";

/**
 * A node's effective config: each property's `default` filled in under the
 * values given. Values for unknown properties are kept (validation says so).
 *
 * @example configValues(manifest.config, { model: "llama3" }) // { model: "llama3", maxTurns: 10, ... }
 */
export function configValues(config: ConfigManifest | undefined, given: Record<string, unknown> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(config?.configSchema.properties ?? {})) {
    if (property.default !== undefined) values[name] = structuredClone(property.default);
  }
  return { ...values, ...given };
}
