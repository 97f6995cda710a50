import { z } from "zod";
import { identifier } from "./interface";

export const eventRow = z.strictObject({
  emit: identifier.meta({ description: "The output the value goes to." }),
  from: z.enum(["response", "tool", "complete"]).default("response").meta({ description: "response: after the run calls; tool: after each tool call; complete: when an agent's loop ends." }),
  value: z.unknown().optional().meta({ description: "A `return` expression or template; default: the whole response (from: response), the tool's result (from: tool), or the agent's final text (from: complete)." }),
  when: z.string().optional().meta({ description: "A `return` expression; the output fires only when it is true." }),
  match: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional().meta({ description: "For a streamed reply: the row reads each event whose `type` (or SSE event name) is this, or one of these, e.g. `response.output_text.delta`; `response` is then the event. On an agent: the events of all its model turns." }),
  accumulate: z.boolean().optional().meta({ description: "The values are joined (text) or collected (anything else), leaving out empty ones; the output carries the whole so far. With `match`, or alone on a streamed reply: every event. With `from: tool`: the values of every tool call so far." }),
  throttleMs: z.number().int().min(0).max(60_000).optional().meta({ description: "With `match`: while the stream runs, the output is updated at most this often; the final value is always put out." }),
  throttleChars: z.number().int().min(1).optional().meta({ description: "With `match` and `accumulate`: while the stream runs, the output is updated once this many more characters arrived." }),
});
export type EventRow = z.infer<typeof eventRow>;

/** api/events.yaml: one row per output, in the order the outputs are declared. */
export const eventsManifest = z.array(eventRow);
export type EventsManifest = z.infer<typeof eventsManifest>;
