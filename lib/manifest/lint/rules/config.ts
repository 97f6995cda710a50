import type { JsonSchema } from "../../schemas";
import { compileSchema } from "../../json-schema-check";
import { defineRule, type Finding } from "../rule";

export const configOrderUnknown = defineRule({
  id: "config-order-unknown",
  severity: "error",
  reads: ["config"],
  summary: "`ui:order` and `required` in config.yaml name only declared properties.",
  check(node) {
    const config = node.parts.config;
    if (!config) return [];
    const properties = config.configSchema.properties;
    const check = (names: string[], path: Array<string | number>, what: string) =>
      names.flatMap((name, index): Finding[] => (Object.hasOwn(properties, name) ? [] : [{ in: "config", path: [...path, index], message: `${what} names '${name}', which is not a property of configSchema` }]));
    return [...check(config["ui:order"] ?? [], ["ui:order"], "ui:order"), ...check(config.configSchema.required, ["configSchema", "required"], "required")];
  },
});

/** A config field whose value is a template filled from the node's inputs when it runs. */
export function isTemplateField(schema: JsonSchema): boolean {
  return schema["ui:field"] === "template";
}

export const schemaInvalid = defineRule({
  id: "schema-invalid",
  severity: "error",
  reads: [],
  summary: "Every JSON Schema (config properties, method inputs and outputSchema) compiles, and every `default` matches its own schema.",
  check(node) {
    const findings: Finding[] = [];
    const checkOne = (schema: JsonSchema, location: Finding["in"], path: Array<string | number>, label: string) => {
      const compiled = compileSchema(schema);
      if (!compiled.ok) {
        findings.push({ in: location, path, message: `${label}: ${compiled.message}` });
        return;
      }
      // A template field (`ui:field: template`) is typed by what its template gives at run time, not by the text of its default.
      if (schema.default !== undefined && !isTemplateField(schema) && !compiled.validate(schema.default)) {
        findings.push({ in: location, path: [...path, "default"], message: `${label}: default ${JSON.stringify(schema.default)} does not match its own schema (${compiled.errors()})` });
      }
    };
    for (const [name, property] of Object.entries(node.parts.config?.configSchema.properties ?? {})) {
      checkOne(property, "config", ["configSchema", "properties", name], `config property '${name}'`);
    }
    for (const [method, definition] of Object.entries(node.parts.service ?? {})) {
      checkOne(definition.inputs as JsonSchema, "service", [method, "inputs"], `inputs of '${method}'`);
      for (const [name, property] of Object.entries(definition.inputs.properties)) {
        if (property.default !== undefined) checkOne(property, "service", [method, "inputs", "properties", name], `parameter '${name}' of '${method}'`);
      }
      if (definition.outputSchema) checkOne(definition.outputSchema as JsonSchema, "service", [method, "outputSchema"], `outputSchema of '${method}'`);
    }
    return findings;
  },
});
