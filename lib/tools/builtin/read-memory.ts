import { z } from "zod";
import type { AgentTool } from "../agent-tool";
import type { ToolBinding } from "../tool-binding";
import { builtinTool } from "./builtin-tool";

const parameters = z.object({
  key: z.string().min(1).max(200).optional().describe("The key to read; leave it out to list the saved keys."),
});

/**
 * read_memory: reads a value saved with save_to_memory in this run, or lists
 * the keys. Reading a tainted key taints the reader (its row says so).
 */
export function readMemory(binding: ToolBinding): AgentTool {
  return builtinTool(
    {
      name: "read_memory",
      rerunOnReplay: true,
      description: "Read a value saved in this run's shared memory with save_to_memory, by key; without a key, list the saved keys.",
      parameters,
      run({ key }, { meta }) {
        const keys = binding.memory.keys();
        if (key === undefined) return { output: JSON.stringify({ keys }), isError: false, structured: { keys } };
        if (!binding.memory.has(key)) {
          return { output: `Nothing is saved under '${key}'. ${keys.length ? `Saved keys: ${keys.join(", ")}.` : "Nothing is saved yet."}`, isError: true };
        }
        const value = binding.memory.get(key);
        const tainted = binding.taint.recordMemoryRead({ key, nodeRunId: meta.nodeRunId });
        return { output: typeof value === "string" ? value : JSON.stringify(value), isError: false, tainted };
      },
    },
    binding,
  );
}
