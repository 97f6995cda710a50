import { z } from "zod";

/** The JSON Schema types a port, a config property or a tool parameter may have. */
export const jsonSchemaTypeName = z.enum(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** How the inspector draws a config property, when its type alone is not enough. */
export const uiWidget = z.enum(["text", "textarea", "password", "select", "checkbox", "number", "code", "toggle", "slider", "radio", "color", "date", "hidden", "json", "markdown", "file", "multiselect", "tags"]);

/** How the inspector lays out a field beyond its widget: the documented config-form UI keys. */
export const uiField = z.enum(["template", "code", "json", "markdown", "credential", "nodePicker", "file", "list", "keyValue", "schema"]);

export interface JsonSchema {
  type?: z.infer<typeof jsonSchemaTypeName> | z.infer<typeof jsonSchemaTypeName>[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  "ui:widget"?: z.infer<typeof uiWidget>;
  "ui:placeholder"?: string;
  "ui:field"?: string;
  "ui:dependencies"?: Record<string, unknown>;
  "ui:options"?: Record<string, unknown>;
  "ui:help"?: string;
  "ui:title"?: string;
  enumNames?: string[];
  step?: number;
  $schema?: string;
}

const count = z.number().int().min(0);

/**
 * The JSON Schema subset Switchboard reads: what tool parameters, config
 * forms and outputs need, and nothing a node author could misspell silently.
 */
export const jsonSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.strictObject({
    type: z.union([jsonSchemaTypeName, z.array(jsonSchemaTypeName)]).optional().meta({ description: "The value's JSON type (or a list of types)." }),
    title: z.string().optional().meta({ description: "A short label (the inspector's field label)." }),
    description: z.string().optional().meta({ description: "What the value means; shown to people and, for tool parameters, to the model." }),
    default: z.unknown().optional().meta({ description: "The value used when none is given." }),
    enum: z.array(z.unknown()).min(1).optional().meta({ description: "The only values allowed." }),
    const: z.unknown().optional().meta({ description: "The one value allowed." }),
    examples: z.array(z.unknown()).optional().meta({ description: "Example values." }),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
    multipleOf: z.number().positive().optional(),
    minLength: count.optional(),
    maxLength: count.optional(),
    pattern: z.string().optional().meta({ description: "A regular expression a string must match." }),
    format: z.string().optional().meta({ description: "A string format such as uri, email or date-time." }),
    items: jsonSchema.optional().meta({ description: "The schema of every item of an array." }),
    minItems: count.optional(),
    maxItems: count.optional(),
    uniqueItems: z.boolean().optional(),
    properties: z.record(z.string(), jsonSchema).optional().meta({ description: "The schema of each property of an object." }),
    required: z.array(z.string()).optional().meta({ description: "The properties an object must have." }),
    additionalProperties: z.union([z.boolean(), jsonSchema]).optional(),
    oneOf: z.array(jsonSchema).optional(),
    anyOf: z.array(jsonSchema).optional(),
    allOf: z.array(jsonSchema).optional(),
    "ui:widget": uiWidget.optional().meta({ description: "How the inspector draws this field." }),
    "ui:placeholder": z.string().optional().meta({ description: "Placeholder text in the inspector." }),
    "ui:field": z.string().optional().meta({ description: "A special editor for the field, e.g. `template` (a `{{ }}` template filled from the node's inputs at run time), `code`, `json`." }),
    "ui:dependencies": z.record(z.string(), z.unknown()).optional().meta({ description: "Show the field only when other fields have these values, e.g. `{ authRequired: true }`." }),
    "ui:options": z.record(z.string(), z.unknown()).optional().meta({ description: "Widget options (rows, language, …), passed to the widget as written." }),
    "ui:help": z.string().optional().meta({ description: "Help text under the field." }),
    "ui:title": z.string().optional().meta({ description: "A label that overrides `title` in the inspector." }),
    enumNames: z.array(z.string()).optional().meta({ description: "Labels for the `enum` values, in the same order." }),
    step: z.number().positive().optional().meta({ description: "The increment of a number field's spinner or slider." }),
    $schema: z.string().optional().meta({ description: "Ignored: the editor's schema hint." }),
  }),
);

/** A JSON Schema that describes an object: a method's parameters, a node's config. */
export const objectSchema = z.lazy(() =>
  z.strictObject({
    type: z.literal("object").meta({ description: "Always `object`." }),
    description: z.string().optional().meta({ description: "What the object as a whole holds." }),
    properties: z.record(z.string(), jsonSchema).default({}).meta({ description: "Each parameter or property, by name." }),
    required: z.array(z.string()).default([]).meta({ description: "The names that must be present." }),
    additionalProperties: z.union([z.boolean(), jsonSchema]).optional().meta({ description: "Whether names not listed are accepted (default: false for tool inputs)." }),
  }),
);
export type ObjectSchema = z.infer<typeof objectSchema>;
