import { z } from "zod";
import type { NodePort } from "./node-type-info";

/**
 * The input fields of a Start or a Task Start: what a run (or a task call)
 * takes. Each field becomes an output port of the node, and the fields
 * together are the input schema a run's input (or a task tool's arguments)
 * is checked against.
 */

/** The output every Start and Task Start puts out when it runs, so a node that needs only a trigger can follow it. */
export const startedOutput = "started";

/** What a field holds; a field always carries a value, so never `signal`. */
export const fieldType = z.enum(["string", "number", "boolean", "object", "array"]);

export const inputField = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/, "use letters, digits and _, starting with a letter")
    .meta({ title: "Name", description: "The field's name: an output port of the node and a property of the input." }),
  type: fieldType.default("string").meta({ title: "Type" }),
  description: z.string().default("").meta({ title: "Description", description: "What the field holds; shown to people and, for a task, to the model." }),
  required: z.boolean().default(false).meta({ title: "Required" }),
});
export type InputField = z.infer<typeof inputField>;

/**
 * A field of an entry node's input: an input field a person declared, or a
 * trigger's own field (a webhook's `body`), which may hold any value.
 */
export type EntryField = Omit<InputField, "type"> & { type: InputField["type"] | "any" };

/** A list of fields with unique names, none called `started` (the node's own signal output). */
export const inputFieldList = z
  .array(inputField)
  .default([])
  .superRefine((fields, context) => {
    const seen = new Set<string>();
    fields.forEach((field, index) => {
      if (field.name === startedOutput) {
        context.addIssue({ code: "custom", path: [index, "name"], message: `"${startedOutput}" is the node's own signal output; give the field another name` });
      } else if (seen.has(field.name)) {
        context.addIssue({ code: "custom", path: [index, "name"], message: `a field named "${field.name}" comes earlier; field names must be unique` });
      }
      seen.add(field.name);
    });
  });

/** The fields in a config value, skipping any that do not parse (config validation reports those). */
export function readFields(value: unknown): InputField[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = inputField.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The output ports of a Start or Task Start with these fields: one per field, then `started`. */
export function fieldPorts(fields: readonly EntryField[]): NodePort[] {
  const ports = fields.map((field): NodePort => ({ name: field.name, type: field.type, description: field.description, required: false }));
  return [...ports, { name: startedOutput, type: "signal", description: "Fires when the node runs, with no value.", required: false }];
}

/**
 * What a Start or Task Start puts out for a checked input: each field given,
 * then `started`. A field left out fires nothing, so a node that requires it
 * does not run.
 */
export function fieldOutputs(fields: readonly EntryField[], values: Record<string, unknown>): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const field of fields) if (values[field.name] !== undefined) outputs[field.name] = values[field.name];
  outputs[startedOutput] = null;
  return outputs;
}

/** The JSON Schema of an input with these fields: a task tool's `inputSchema`, a run form's schema. */
export function fieldsInputSchema(fields: readonly EntryField[]): {
  type: "object";
  properties: Record<string, { type?: string; description?: string }>;
  required: string[];
  additionalProperties: false;
} {
  const properties = Object.fromEntries(
    fields.map((field) => [field.name, { ...(field.type === "any" ? {} : { type: field.type }), ...(field.description ? { description: field.description } : {}) }]),
  );
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return { type: "object", properties, required, additionalProperties: false };
}
