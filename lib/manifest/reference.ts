import { z } from "zod";
import { loadRules } from "./lint/load-rules";
import { nodeRules } from "./lint/rules";
import { call, configManifest, eventRow, interfaceManifest, serviceMethod, testManifest, toolExchangeManifest } from "./schemas";

type Json = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  additionalProperties?: Json | boolean;
  anyOf?: Json[];
  oneOf?: Json[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  $ref?: string;
};

interface Row {
  key: string;
  type: string;
  required: boolean;
  default: string;
  description: string;
}

/** The files documented, in the order a node author meets them. */
const sections: ReadonlyArray<{ title: string; intro: string; schema: z.ZodType; prefix?: string }> = [
  { title: "interface.yaml", intro: "Identity, ports, credentials and service connectors.", schema: interfaceManifest },
  { title: "config.yaml", intro: "The settings the inspector shows, as a JSON Schema.", schema: configManifest },
  { title: "api/service.yaml", intro: "A map from method name to method; each method is offered as one MCP tool.", schema: serviceMethod, prefix: "<method>." },
  { title: "Calls (api/run.yaml, and a method's `calls`)", intro: "api/run.yaml is a list of calls, made in order when the node runs as a step.", schema: call, prefix: "- " },
  { title: "api/events.yaml", intro: "A list with one row per output, in the order the outputs are declared.", schema: eventRow, prefix: "- " },
  { title: "api/toolExchange.yaml", intro: "Agents only: how the model API expresses a tool call, layered over the last run call. Usually `$ref: <protocol>` plus a few local keys. In any api/ file, a map may hold `$ref: <protocol>` or `$ref: <protocol>#a/b` (a fragment): alone it is replaced by what it names; with sibling keys the two are deep-merged, local keys winning and lists replaced.", schema: toolExchangeManifest },
  { title: "test.yaml", intro: "Cases the node's own test runs (`npm run nodes -- test NAME`).", schema: testManifest },
];

/**
 * The manifest reference for node authors, generated from the zod schemas
 * and the rule list, so docs/nodes.md cannot drift from what the loader reads.
 */
export function renderManifestReference(): string {
  const parts: string[] = [];
  for (const section of sections) {
    const json = z.toJSONSchema(section.schema, { io: "input", unrepresentable: "any" }) as Json;
    parts.push(`### ${section.title}\n\n${section.intro}\n\n| key | type | required | default | meaning |\n| --- | --- | --- | --- | --- |`);
    for (const row of rows(json, section.prefix ?? "")) {
      parts.push(`| \`${row.key}\` | ${row.type} | ${row.required ? "yes" : ""} | ${row.default} | ${cell(row.description)} |`);
    }
    parts.push("");
  }
  parts.push("### Lint rules\n\nEvery finding is `file:line:col severity rule-id message`.\n\n| rule | severity | what it asks |\n| --- | --- | --- |");
  for (const rule of [...loadRules, ...nodeRules]) parts.push(`| \`${rule.id}\` | ${rule.severity} | ${cell(rule.summary)} |`);
  return `${parts.join("\n")}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function rows(schema: Json, prefix: string): Row[] {
  const result: Row[] = [];
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const name = `${prefix}${key}`;
    result.push({
      key: name,
      type: key === "calls" && prefix === "<method>." ? "list of calls (see Calls)" : typeText(property),
      required: required.has(key) && property.default === undefined,
      default: property.default === undefined ? "" : `\`${JSON.stringify(property.default)}\``,
      description: property.description ?? "",
    });
    // A method's calls are documented once, in their own section.
    if (key === "calls" && prefix === "<method>.") continue;
    for (const [label, nested] of nestedObjects(property)) result.push(...rows(nested, `${name}${label}.`));
  }
  return result;
}

/** Object shapes under a property worth their own rows (not recursive JSON Schemas). */
function nestedObjects(property: Json): Array<[string, Json]> {
  const direct = (candidate: Json | undefined): boolean => Boolean(candidate?.properties) && !candidate?.$ref;
  if (direct(property)) return [["", property]];
  if (property.type === "array" && direct(property.items)) return [["[]", property.items as Json]];
  const variants = property.oneOf ?? property.anyOf ?? [];
  return variants.filter((variant) => direct(variant)).map((variant): [string, Json] => {
    const discriminator = Object.entries(variant.properties ?? {}).find(([, value]) => value.const !== undefined);
    return [discriminator ? `(${discriminator[0]}: ${String(discriminator[1].const)})` : "", variant];
  });
}

function typeText(schema: Json): string {
  if (schema.$ref) return "JSON Schema";
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((value) => `\`${String(value)}\``).join(" \\| ");
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const texts = variants.map((variant, index) => (index > 0 && variant.type === "string" && !variant.enum && !variant.pattern ? "template" : typeText(variant)));
    return [...new Set(texts)].join(" \\| ");
  }
  if (schema.type === "array") return schema.items ? `list of ${typeText(schema.items)}` : "list";
  if (schema.type === "object") {
    if (schema.properties) return "map";
    const values = schema.additionalProperties;
    return values && typeof values === "object" && Object.keys(values).length ? `map of ${typeText(values)}` : "map";
  }
  if (Array.isArray(schema.type)) return schema.type.join(" \\| ");
  return schema.type ?? "any";
}

export const generatedStart = "<!-- generated from lib/manifest/schemas by `npm run docs:nodes`: do not edit by hand -->";
export const generatedEnd = "<!-- end of generated reference -->";

/** Replaces the generated region of docs/nodes.md, keeping the hand-written text around it. */
export function spliceReference(page: string, reference: string): string {
  const start = page.indexOf(generatedStart);
  const end = page.indexOf(generatedEnd);
  if (start === -1 || end === -1 || end < start) throw new Error(`docs/nodes.md must hold the markers ${generatedStart} and ${generatedEnd}`);
  return `${page.slice(0, start + generatedStart.length)}\n\n${reference}\n${page.slice(end)}`;
}
