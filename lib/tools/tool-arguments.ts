import type { z } from "zod";

export type ParsedArguments<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * A tool call's arguments parsed by the tool's zod schema. A failure names
 * every field at fault, in words a model can act on; it never throws.
 *
 * @example parseToolArguments(z.object({ orderId: z.string() }), { orderId: 7 }, "lookup_order")
 * // { ok: false, message: "Invalid arguments for lookup_order: orderId: Invalid input: expected string, received number" }
 */
export function parseToolArguments<S extends z.ZodType>(schema: S, args: unknown, toolName: string): ParsedArguments<z.output<S>> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  return { ok: false, message: `Invalid arguments for ${toolName}: ${problems.join("; ")}` };
}
