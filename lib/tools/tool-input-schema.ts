import { z } from "zod";

/**
 * The JSON Schema a model sees for a zod parameters schema: draft-7, the
 * input side (defaults optional), without the `$schema` marker no tool list
 * carries. Throws when the schema has no JSON form (a date, a function) or
 * does not describe an object.
 */
export function toolInputSchema(parameters: z.ZodType): Record<string, unknown> {
  const { $schema: _marker, ...schema } = z.toJSONSchema(parameters, { target: "draft-7", io: "input" }) as Record<string, unknown>;
  if (schema.type !== "object") throw new Error("parameters must describe an object (z.object({ ... })), as tool arguments are always one");
  return schema;
}
