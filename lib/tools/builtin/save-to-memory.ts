import { z } from "zod";
import type { AgentTool } from "../agent-tool";
import type { ToolBinding } from "../tool-binding";
import { builtinTool } from "./builtin-tool";

const parameters = z.object({
  key: z.string().min(1).max(200).describe("The name to save the value under; saving again under it replaces the value."),
  value: z.unknown().describe("Any JSON value: text, a number, a list, an object."),
});

/**
 * save_to_memory: puts a value in the run's memory, which every agent of the
 * run can read back with read_memory. When the saving agent has taken in
 * outside content, the key is recorded as tainted.
 */
export function saveToMemory(binding: ToolBinding): AgentTool {
  return builtinTool(
    {
      name: "save_to_memory",
      rerunOnReplay: true,
      description: "Save a value in this run's shared memory under a key, for yourself or other agents to read later with read_memory.",
      parameters,
      async run({ key, value }, { rowId, meta }) {
        binding.memory.set(key, value ?? null);
        await binding.taint.recordMemoryWrite({ key, nodeId: meta.callerNodeId, nodeRunId: meta.nodeRunId, toolCallId: rowId });
        return { output: `Saved under '${key}'.`, isError: false };
      },
    },
    binding,
  );
}
