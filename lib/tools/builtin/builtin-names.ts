/** The built-in tools' names: reserved, so a custom tool can never shadow one. */
export const builtinToolNames = ["save_to_memory", "read_memory", "get_current_time"] as const;

export type BuiltinToolName = (typeof builtinToolNames)[number];

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (builtinToolNames as readonly string[]).includes(name);
}
