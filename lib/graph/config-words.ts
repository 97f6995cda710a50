import type { ConfigIssue, ConfigSchema } from "./node-type-info";

/** Words people use for parts of a setting's name (camelCase split into them). */
const acronyms: Record<string, string> = { url: "URL", id: "ID", api: "API", http: "HTTP", uri: "URI", mcp: "MCP", json: "JSON" };

interface PropertySchema {
  title?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
}

/**
 * A setting's name as people read it: the schema's `title`, else its key in
 * words (`baseUrl` → "Base URL", `max_turns` → "Max turns").
 */
export function settingTitle(field: string, schema?: ConfigSchema): string {
  const path = field.split(".");
  const property = (schema?.properties as Record<string, PropertySchema> | undefined)?.[path[0]];
  if (path.length === 1 && property?.title) return property.title;
  const last = path.at(-1) ?? field;
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase()
    .split(" ")
    .filter(Boolean)
    .map((word) => acronyms[word] ?? word);
  const text = words.join(" ");
  const named = text.charAt(0).toUpperCase() + text.slice(1);
  return path.length > 1 && property?.title ? `${property.title}: ${named}` : named;
}

/** Validator phrasings (ajv, zod) and how to say them. `title` is the setting's name. */
const phrasings: { pattern: RegExp; say: (title: string, match: RegExpExecArray, property?: PropertySchema) => string }[] = [
  { pattern: /required property|^is required$|received undefined/, say: (title) => `${title} is required` },
  { pattern: /must be <= (\S+)/, say: (title, match) => `${title} must be at most ${match[1]}` },
  { pattern: /must be >= (\S+)/, say: (title, match) => `${title} must be at least ${match[1]}` },
  { pattern: /must be < (\S+)/, say: (title, match) => `${title} must be less than ${match[1]}` },
  { pattern: /must be > (\S+)/, say: (title, match) => `${title} must be more than ${match[1]}` },
  { pattern: /must NOT have fewer than 1 (characters|items)|too small.*>=1|must not be empty/i, say: (title) => `${title} must not be empty` },
  { pattern: /must NOT have more than (\d+) characters/, say: (title, match) => `${title} must be at most ${match[1]} characters long` },
  { pattern: /allowed values|expected one of/, say: (title, _match, property) => `${title} must be one of ${(property?.enum ?? []).map((value) => JSON.stringify(value)).join(", ") || "the listed values"}` },
  { pattern: /must match format "(uri|url)"/, say: (title) => `${title} must be a full URL, e.g. https://api.example.com` },
  { pattern: /must match format "(\w+)"/, say: (title, match) => `${title} must be a valid ${match[1]}` },
  { pattern: /must match pattern|invalid string|^a server id uses/i, say: (title) => `${title} is not in the expected form` },
  { pattern: /must be integer|expected int/, say: (title) => `${title} must be a whole number` },
  { pattern: /must be number|expected number/, say: (title) => `${title} must be a number` },
  { pattern: /must be string|expected string|^must be text$/, say: (title) => `${title} must be text` },
  { pattern: /must be boolean|expected boolean/, say: (title) => `${title} must be yes or no` },
  { pattern: /must be object|expected object|expected record/, say: (title) => `${title} must be a set of named values` },
  { pattern: /must be array|expected array/, say: (title) => `${title} must be a list` },
];

/**
 * One config issue in words that name the setting, as the inspector and the
 * Run dialog show it: `must have required property 'baseUrl'` on field
 * `baseUrl` → "Base URL is required". Anything not recognised keeps the
 * validator's text after the setting's name.
 *
 * @example configIssueInWords({ field: "maxTurns", message: "must be <= 20" }, schema) // "Max turns must be at most 20"
 */
export function configIssueInWords(issue: ConfigIssue, schema?: ConfigSchema): string {
  if (!issue.field) return capitalize(issue.message);
  const title = settingTitle(issue.field, schema);
  const property = (schema?.properties as Record<string, PropertySchema> | undefined)?.[issue.field.split(".")[0]];
  for (const phrasing of phrasings) {
    const match = phrasing.pattern.exec(issue.message);
    if (match) return phrasing.say(title, match, property);
  }
  if (/unknown setting/.test(issue.message)) return `${title} is not a setting of this node; remove it`;
  return `${title}: ${issue.message}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
