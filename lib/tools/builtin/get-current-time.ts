import { z } from "zod";
import type { AgentTool } from "../agent-tool";
import type { ToolBinding } from "../tool-binding";
import { builtinTool } from "./builtin-tool";

const parameters = z.object({
  timeZone: z.string().min(1).optional().describe("An IANA time zone such as Europe/Paris or America/New_York; default UTC."),
});

/** get_current_time: the current time as ISO 8601, in UTC and, when asked, in an IANA time zone. */
export function getCurrentTime(binding: ToolBinding): AgentTool {
  return builtinTool(
    {
      name: "get_current_time",
      description: "Get the current date and time (ISO 8601), optionally in an IANA time zone such as Europe/Paris.",
      parameters,
      run({ timeZone }) {
        const now = binding.now?.() ?? new Date();
        const zone = timeZone ?? "UTC";
        let local: string;
        try {
          local = localIsoTime(now, zone);
        } catch {
          return { output: `Unknown time zone '${zone}': use an IANA name such as Europe/Paris or America/New_York.`, isError: true };
        }
        const result = { utc: now.toISOString(), timeZone: zone, local };
        return { output: JSON.stringify(result), isError: false, structured: result };
      },
    },
    binding,
  );
}

/**
 * The wall-clock time in a zone with its UTC offset, to the second.
 *
 * @example localIsoTime(new Date("2025-01-15T12:00:00Z"), "Europe/Paris") // "2025-01-15T13:00:00+01:00"
 */
export function localIsoTime(date: Date, timeZone: string): string {
  const format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const part = Object.fromEntries(format.formatToParts(date).map((piece) => [piece.type, piece.value]));
  const wall = Date.UTC(Number(part.year), Number(part.month) - 1, Number(part.day), Number(part.hour), Number(part.minute), Number(part.second));
  const offset = Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const minutes = String(Math.abs(offset) % 60).padStart(2, "0");
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${sign}${hours}:${minutes}`;
}
