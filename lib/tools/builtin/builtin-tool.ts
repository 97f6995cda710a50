import type { z } from "zod";
import type { AgentTool, CallMeta } from "../agent-tool";
import { parseToolArguments } from "../tool-arguments";
import type { ToolBinding } from "../tool-binding";
import { toolInputSchema } from "../tool-input-schema";
import { tracedTool, type TracedOutcome } from "../traced-tool";
import type { BuiltinToolName } from "./builtin-names";

/** The server name built-in tools carry on the trace. */
export const builtinToolServer = "builtin";

export interface BuiltinToolSpec<S extends z.ZodType> {
  name: BuiltinToolName;
  description: string;
  parameters: S;
  /** It touches only the run's memory: on resume it runs again so the memory is rebuilt. */
  rerunOnReplay?: boolean;
  run(args: z.output<S>, call: { rowId: string; meta: CallMeta }, binding: ToolBinding): TracedOutcome | Promise<TracedOutcome>;
}

/** A built-in bound to a run: arguments parsed by its zod schema, one trace row per call (server "builtin"). */
export function builtinTool<S extends z.ZodType>(spec: BuiltinToolSpec<S>, binding: ToolBinding): AgentTool {
  return tracedTool(
    {
      name: spec.name,
      server: builtinToolServer,
      description: spec.description,
      inputSchema: toolInputSchema(spec.parameters),
      // Built-ins reach nothing outside the run: repeating one is always safe.
      retrySafe: true,
      // …and change nothing outside it: for approval policies they are read-only.
      hints: { readOnly: true },
      rerunOnReplay: spec.rerunOnReplay,
      async run(args, call) {
        const parsed = parseToolArguments(spec.parameters, args, spec.name);
        return parsed.ok ? spec.run(parsed.value, call, binding) : { output: parsed.message, isError: true };
      },
    },
    binding,
  );
}
