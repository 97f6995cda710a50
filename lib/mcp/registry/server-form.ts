import type { EntryProblem } from "./entry-problem";
import type { ServerEntry } from "./server-entry";

/**
 * The server form's fields as text, the way a person edits them: a stdio
 * server as an entry of the stdio catalogue with its declared parameters
 * and environment variables (posted as `parameter.NAME` and `env.NAME`),
 * headers as `Name: value` lines, allowed tools separated by commas or
 * lines. Secret values are never part of this: only their names. The form
 * posts `id` and `name` as `serverId` and `serverName`.
 */
export interface ServerFormFields {
  id: string;
  name: string;
  description: string;
  transport: "stdio" | "http" | "sse";
  /** The stdio catalogue entry's id. */
  catalogue: string;
  parameters: Record<string, string>;
  env: Record<string, string>;
  url: string;
  headers: string;
  timeoutMs: string;
  toolTimeoutMs: string;
  maxRetries: string;
  maxConcurrentCalls: string;
  allowedTools: string;
  /** "" (no OAuth), authorization_code or client_credentials. */
  oauthGrant: string;
  oauthClientId: string;
  /** The name of one of the server's secrets. */
  oauthClientSecret: string;
  oauthScope: string;
  oauthAllowIssuerMismatch: boolean;
  enabled: boolean;
  secretNames: string[];
}

export type FormParse = { ok: true; input: Record<string, unknown>; secretValues: Record<string, string> } | { ok: false; problem: EntryProblem };

/** What the form reads from: a FormData or anything shaped like one. */
export interface FormSource {
  get(name: string): unknown;
  getAll(name: string): unknown[];
  keys(): Iterable<string>;
}

/**
 * An entry as the form shows it, e.g. for editing; `choice` is the stdio
 * catalogue entry its command line matches (see matchCatalogue).
 */
export function formFromEntry(entry: ServerEntry, choice?: { catalogue: string; parameters: Record<string, string> }): ServerFormFields {
  const stdio = entry.transport === "stdio" ? entry : null;
  const remote = entry.transport !== "stdio" ? entry : null;
  return {
    id: entry.id,
    name: entry.name,
    description: entry.description ?? "",
    transport: entry.transport,
    catalogue: choice?.catalogue ?? "",
    parameters: { ...choice?.parameters },
    env: { ...stdio?.env },
    url: remote?.url ?? "",
    headers: Object.entries(remote?.headers ?? {}).map(([key, value]) => `${key}: ${value}`).join("\n"),
    timeoutMs: String(entry.timeoutMs),
    toolTimeoutMs: entry.toolTimeoutMs === undefined ? "" : String(entry.toolTimeoutMs),
    maxRetries: String(entry.maxRetries),
    maxConcurrentCalls: entry.maxConcurrentCalls === undefined ? "" : String(entry.maxConcurrentCalls),
    allowedTools: (entry.allowedTools ?? []).join(", "),
    oauthGrant: remote?.oauth?.grant ?? "",
    oauthClientId: remote?.oauth?.clientId ?? "",
    oauthClientSecret: remote?.oauth?.clientSecret ?? "",
    oauthScope: remote?.oauth?.scope ?? "",
    oauthAllowIssuerMismatch: remote?.oauth?.allowIssuerMismatch === true,
    enabled: entry.enabled,
    secretNames: entry.secrets ?? [],
  };
}

class FormProblem extends Error {
  constructor(readonly problem: EntryProblem) {
    super(problem.message);
  }
}

/**
 * The form's fields as an entry input for the registry to validate, and the
 * secret values typed into it (`secretName` / `secretValue` pairs; an empty
 * value keeps the stored one). Only line syntax is checked here; every rule
 * about the entry itself is the registry's.
 */
export function entryFromForm(form: FormSource): FormParse {
  try {
    const field = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : "");
    const transport = field("transport");
    // Posted as serverId and serverName: inputs named id or name would shadow the form element's own properties.
    const input: Record<string, unknown> = { id: field("serverId").trim(), name: field("serverName").trim(), transport };
    if (field("description").trim()) input.description = field("description").trim();
    if (transport === "stdio") {
      // No command line and no free variables: a catalogue entry, its declared parameters and variables.
      input.catalogue = field("catalogue").trim();
      input.parameters = prefixed(form, "parameter.");
      const env = prefixed(form, "env.");
      if (Object.keys(env).length) input.env = env;
    } else {
      input.url = field("url").trim();
      const headers = pairs(field("headers"), ":", "headers", "Name: value");
      if (Object.keys(headers).length) input.headers = headers;
      const grant = field("oauthGrant").trim();
      if (grant) {
        const oauth: Record<string, string | boolean> = { grant };
        for (const [name, key] of [["oauthClientId", "clientId"], ["oauthClientSecret", "clientSecret"], ["oauthScope", "scope"]] as const) {
          if (field(name).trim()) oauth[key] = field(name).trim();
        }
        if (form.get("oauthAllowIssuerMismatch") === "on") oauth.allowIssuerMismatch = true;
        input.oauth = oauth;
      }
    }
    for (const name of ["timeoutMs", "toolTimeoutMs", "maxRetries", "maxConcurrentCalls"]) {
      const value = wholeNumber(field(name), name);
      if (value !== undefined) input[name] = value;
    }
    const tools = field("allowedTools").split(/[,\n]/).map((tool) => tool.trim()).filter(Boolean);
    if (tools.length) input.allowedTools = tools;
    input.enabled = form.get("enabled") === "on" || form.get("enabled") === "true";
    const { names, values } = secretPairs(form);
    if (names.length) input.secrets = names;
    return { ok: true, input, secretValues: values };
  } catch (error) {
    if (error instanceof FormProblem) return { ok: false, problem: error.problem };
    throw error;
  }
}

/** The non-empty fields named `PREFIX` + a name, by name. */
function prefixed(form: FormSource, prefix: string): Record<string, string> {
  const record: Record<string, string> = {};
  for (const name of new Set(form.keys())) {
    const value = form.get(name);
    if (name.startsWith(prefix) && typeof value === "string" && value.trim()) record[name.slice(prefix.length)] = value.trim();
  }
  return record;
}

function pairs(text: string, separator: string, field: string, shape: string): Record<string, string> {
  const record: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const at = line.indexOf(separator);
    if (at <= 0) throw new FormProblem({ field, message: `line ${index + 1}: write ${shape}` });
    const key = line.slice(0, at).trim();
    if (key in record) throw new FormProblem({ field, message: `line ${index + 1}: ${key} is given twice` });
    record[key] = line.slice(at + 1).trim();
  });
  return record;
}

function wholeNumber(text: string, field: string): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (!/^-?\d+$/.test(trimmed)) throw new FormProblem({ field, message: "write a whole number" });
  return Number(trimmed);
}

function secretPairs(form: FormSource): { names: string[]; values: Record<string, string> } {
  const names = form.getAll("secretName").map((name) => String(name).trim());
  const typed = form.getAll("secretValue").map(String);
  const values: Record<string, string> = {};
  const kept: string[] = [];
  names.forEach((name, index) => {
    if (!name && !typed[index]) return;
    if (!name) throw new FormProblem({ field: "secrets", message: `secret ${index + 1} has a value but no name` });
    kept.push(name);
    if (typed[index]) values[name] = typed[index];
  });
  return { names: kept, values };
}
