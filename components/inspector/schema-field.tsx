"use client";

import { isObjectList, schemaType } from "./config-value";
import type { FieldProps } from "./field-frame";
import { JsonField } from "./json-field";
import { ObjectListField } from "./object-list-field";
import { CheckboxField, NumberField, SelectField, TextField } from "./scalar-fields";

export type { FieldProps } from "./field-frame";

/** One config field, drawn by its schema: text, textarea, number, checkbox, select, rows of objects, or JSON. */
export function SchemaField(props: FieldProps) {
  const { schema } = props;
  const type = schemaType(schema);
  if (schema.enum) return <SelectField {...props} />;
  if (type === "boolean") return <CheckboxField {...props} />;
  if (type === "integer" || type === "number") return <NumberField {...props} integer={type === "integer"} />;
  if (type === "string" || (type === undefined && !schema.properties && !schema.items)) return <TextField {...props} />;
  if (isObjectList(schema)) return <ObjectListField {...props} />;
  return <JsonField {...props} />;
}

