import type { AgentTool } from "../agent-tool";
import type { ToolBinding } from "../tool-binding";
import type { BuiltinToolName } from "./builtin-names";
import { getCurrentTime } from "./get-current-time";
import { readMemory } from "./read-memory";
import { saveToMemory } from "./save-to-memory";

export { builtinToolNames, isBuiltinToolName, type BuiltinToolName } from "./builtin-names";
export { builtinToolServer } from "./builtin-tool";
export { RunMemory } from "./run-memory";
export { localIsoTime } from "./get-current-time";

const factories: Record<BuiltinToolName, (binding: ToolBinding) => AgentTool> = {
  save_to_memory: saveToMemory,
  read_memory: readMemory,
  get_current_time: getCurrentTime,
};

/** A built-in tool bound to a run. */
export function createBuiltinTool(name: BuiltinToolName, binding: ToolBinding): AgentTool {
  return factories[name](binding);
}
