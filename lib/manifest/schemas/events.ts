import { z } from "zod";
import { identifier } from "./interface";

export const eventRow = z.strictObject({
  emit: identifier.meta({ description: "The output the value goes to." }),
  from: z.enum(["response", "tool", "complete"]).default("response").meta({ description: "response: after the run calls; tool: after each tool call; complete: when an agent's loop ends." }),
  value: z.unknown().optional().meta({ description: "A `return` expression or template; default: the whole response (from: response), the tool's result (from: tool), or the agent's final text (from: complete)." }),
  when: z.string().optional().meta({ description: "A `return` expression; the output fires only when it is true." }),
});
export type EventRow = z.infer<typeof eventRow>;

/** api/events.yaml: one row per output, in the order the outputs are declared. */
export const eventsManifest = z.array(eventRow);
export type EventsManifest = z.infer<typeof eventsManifest>;
