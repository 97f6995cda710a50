import path from "node:path";
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { exists, ImportInputError, readYaml, type UnoversePackage } from "./unoverse-tree";
import { placeOfKey, segmentProblem } from "./import-names";
import { mapStrings, renameRoots } from "./rename-roots";
import { platformUrls, platformUrlsRead, readPlatformUrls, readScopeAsRun, scopeNote } from "./run-scope";
import { inlineHelpers, packageHelpers } from "./inline-helpers";
import { findBlocker } from "./import-blockers";
import { type ConnectionSetting, connectionSettings, moveConnectionSettings, signWithConfigRegion } from "./connection-settings";
import { presignCredentials, s3PathStyle } from "./s3-path-style";
import { translateExchange, translateToolRows } from "./stream-exchange";
import { expressionUrl } from "../lint/url-origin";

/** What became of one Unoverse node. */
export interface TranslatedNode {
  /** `package/Type`, as the report names it. */
  source: string;
  /** The Switchboard node name (folder name). */
  name: string;
  status: "imported" | "changed" | "not-importable";
  /** What was changed to make it fit, one line each. */
  notes: string[];
  /** For not-importable: the one missing feature that stops it. */
  reason?: string;
  /** Files to write, relative to the node's folder: parsed YAML values. */
  files: Record<string, unknown>;
}

/** The config keys Switchboard's JSON Schema subset reads; any other is dropped with a note. */
const schemaKeys = new Set([
  "type", "title", "description", "default", "enum", "const", "examples", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "pattern", "format", "items", "minItems", "maxItems", "uniqueItems", "properties", "required", "additionalProperties",
  "oneOf", "anyOf", "allOf", "ui:widget", "ui:placeholder", "ui:field", "ui:dependencies", "ui:options", "ui:help", "ui:title", "enumNames", "step", "$ref",
]);
const widgets = new Set(["text", "textarea", "password", "select", "checkbox", "number", "code", "toggle", "slider", "radio", "color", "date", "hidden", "json", "markdown", "file", "multiselect", "tags"]);
/** Unoverse's per-box sign-in fields: Switchboard decides who may run a workflow with its roles, not per node. */
const authFields = new Set(["authRequired", "authRole"]);
const callKeys = new Set(["name", "when", "method", "url", "query", "headers", "body", "encoding", "transport", "terminator", "credential", "timeoutMs", "retry", "okOn", "error", "paginate", "poll", "chunk", "state", "value", "wait", "presign", "loop", "key", "$ref"]);

/** `AirtableFetch` → `airtable-fetch`, `OpenAIAgent` → `open-ai-agent`. */
export function kebabName(type: string): string {
  return type
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase()
    .replace(/^([0-9])/, "n-$1");
}

/**
 * Translates one Unoverse node folder into the files of a Switchboard node:
 * identity merged into interface.yaml, credentials resolved from the
 * package (fields, description, origins), `$ref`s pointed at the package's
 * namespaced shared/ fragments, the `signal` root renamed to the input it
 * reads, method parameters declared, test data kept (marked live when it
 * needs the real API). What cannot be carried says why, naming one feature.
 */
export async function translateNode(
  pkg: UnoversePackage,
  nodeDir: string,
  options: { takenNames: ReadonlySet<string>; origin: string; settings?: readonly ConnectionSetting[] },
): Promise<TranslatedNode> {
  const folder = path.basename(nodeDir);
  const node = ((await readYaml(path.join(nodeDir, "node.yaml"))) ?? {}) as Record<string, unknown>;
  const type = typeof node.type === "string" ? node.type : folder;
  const source = `${pkg.name}/${type}`;
  const face = ((await readOptional(path.join(nodeDir, "interface.yaml"))) ?? {}) as Record<string, unknown>;
  const api: Record<string, unknown> = {};
  for (const file of ["run", "events", "service", "toolExchange", "publish"]) {
    const value = await readOptional(path.join(nodeDir, "api", `${file}.yaml`));
    if (value !== undefined) api[file] = value;
  }
  const notes: string[] = [];
  let name = kebabName(type);
  // The name becomes the node's folder: one plain segment, or the node is refused at its type.
  const nameProblem = segmentProblem(name);
  if (nameProblem) throw new ImportInputError(`${await placeOfKey(path.join(nodeDir, "node.yaml"), "type")}: type: the node's folder name from ${JSON.stringify(type).slice(0, 100)} ${nameProblem.replace(/^'[^']*' /, "")}`);
  if (options.takenNames.has(name)) {
    const renamed = name.startsWith(`${kebabName(pkg.name)}-`) ? `${name}-imported` : `${kebabName(pkg.name)}-${name}`;
    notes.push(`named ${renamed}: ${name} is taken in the catalogue`);
    name = renamed;
  }
  const platform = platformUrlsRead([JSON.stringify(api), ...usedFragments(api, pkg).map((text) => JSON.stringify(parse(text)))].join("\n"));
  if (platform.length) {
    for (const key of Object.keys(api)) api[key] = mapStrings(api[key], readPlatformUrls);
    notes.push(`the platform's own service URLs are base URLs in config: ${platform.map((field) => `scope.${field} → config.${field}`).join(", ")} (set each to where that Unoverse service answers; Switchboard has none)`);
  }
  if (api.toolExchange !== undefined) {
    const last = Array.isArray(api.run) ? (api.run.at(-1) as Record<string, unknown> | undefined) : undefined;
    const streamed = last?.transport === "sse" || last?.transport === "ndjson";
    api.toolExchange = translateExchange(api.toolExchange, { pkg, streamed, body: last?.body, notes });
  }
  if (Array.isArray(api.events)) {
    const unknown = (api.events as Array<Record<string, unknown>>).filter((row) => row && typeof row.from === "string" && !["response", "tool", "complete"].includes(row.from));
    if (unknown.length) {
      const dropped = new Set(unknown.map((row) => String(row.emit)));
      api.events = (api.events as unknown[]).filter((row) => !unknown.includes(row as Record<string, unknown>));
      if (Array.isArray(face.outputs)) face.outputs = (face.outputs as Array<{ name?: unknown }>).filter((output) => !dropped.has(String(output.name)));
      notes.push(`outputs not carried: ${[...dropped].join(", ")} (rows from ${[...new Set(unknown.map((row) => String(row.from)))].join(", ")}, e.g. a narrator model's status lines, which Switchboard has no source for)`);
    }
    api.events = translateToolRows(api.events, notes);
  }
  if (Array.isArray(api.run)) api.run = presignCredentials(api.run, [JSON.stringify(api), ...usedFragments(api, pkg).map((text) => JSON.stringify(parse(text)))]);
  const settings = (options.settings ?? []).filter((setting) => JSON.stringify(api).includes(`credentials.${setting.credential}.${setting.field}`) || usesSharedSetting(api, pkg, setting));
  const moved = settings.length ? (mapStrings(api, (text) => moveConnectionSettings(text, settings)) as Record<string, unknown>) : api;
  if (settings.length) {
    for (const key of Object.keys(api)) api[key] = signWithConfigRegion(moved[key], settings);
    notes.push(`connection settings moved from the credential to config: ${settings.map((setting) => setting.config).join(", ")} (a credential never chooses a host)`);
  }
  let pathStyle = false;
  for (const key of Object.keys(api)) api[key] = mapStrings(api[key], (text) => { const written = s3PathStyle(text); pathStyle ||= written !== text; return written; });
  if (pathStyle) {
    notes.push("S3 URLs written in path style (https://s3.<region>.amazonaws.com/<bucket>/…): the bucket is a path segment, never part of the host");
  }
  const blocker = findBlocker({ node, face, api, shared: pkg.shared, settings: options.settings ?? [] });
  if (blocker) return { source, name, status: "not-importable", notes, reason: blocker, files: {} };

  const inputs = Array.isArray(face.inputs) ? (face.inputs as Array<{ name?: unknown }>) : [];
  // Unoverse's `signal` is the input called signal; a node without one reads its inputs by name through it (`signal.items`), or else its first input.
  const inputNames = new Set(inputs.map((input) => String(input.name)));
  const signalMembers = [...new Set([...JSON.stringify(api).matchAll(/(?<![\w$.])signal\.([A-Za-z_$][\w$]*)/g)].map((match) => match[1]))];
  const byName = !inputNames.has("signal") && signalMembers.length > 0 && signalMembers.every((member) => inputNames.has(member));
  const signalTarget = inputNames.has("signal") ? "inputs.signal" : byName ? "inputs" : typeof inputs[0]?.name === "string" ? `inputs.${inputs[0].name}` : "inputs";
  const helpers = packageHelpers(pkg.shared);
  const rewrite = (value: unknown): unknown =>
    rewriteRefs(mapStrings(value, (text) => { const renamed = readScopeAsRun(renameRoots(text, { signal: signalTarget })); return helpers ? inlineHelpers(renamed, helpers) : renamed; }), pkg);
  if (helpers && /\bhelpers\./.test(JSON.stringify(api))) notes.push(`the package's shared helpers (${[...helpers.keys()].join(", ")}) are written into each expression that calls them`);
  if (JSON.stringify(api).includes("signal")) notes.push(`the \`signal\` root is read as \`${signalTarget}\``);
  const readsScope = scopeNote([JSON.stringify(api), ...usedFragments(api, pkg)].join("\n"));
  if (readsScope) notes.push(readsScope);

  const files: Record<string, unknown> = {};
  const configuration = await readOptional(path.join(nodeDir, "config.yaml"));
  const defaults = configDefaults(configuration, settings);
  const fragments = usedFragments(api, pkg).map((text) => mapStrings(parse(text), (item) => moveConnectionSettings(item, settings)));
  const hostOrigins = configHostOrigins([api, ...fragments], defaults);
  files["interface.yaml"] = translateInterface({ pkg, node, face, name, api, notes, origin: `${options.origin} ${pkg.name}/${folder}`, hostOrigins });
  const dropped = new Set<string>();
  if (configuration !== undefined || settings.length || platform.length) {
    files["config.yaml"] = rewrite(addPlatformUrls(addSettings(translateConfig((configuration ?? { configSchema: { type: "object", properties: {} } }) as Record<string, unknown>, notes, dropped), settings), platform));
  }
  if (files["config.yaml"] && api.toolExchange) wholeNumberLimits(files["config.yaml"], api.toolExchange, notes);
  for (const [file, value] of Object.entries(api)) {
    let translated = rewrite(value);
    if (file === "run") translated = dropCallKeys(translated, notes, "api/run.yaml");
    if (file === "service") translated = translateService(listedMethods(translated as Record<string, unknown>, face, notes), notes);
    files[`api/${file}.yaml`] = translated;
  }
  const test = await readOptional(path.join(nodeDir, "test.yaml"));
  const translatedTest = test === undefined ? undefined : translateTest(test as Record<string, unknown>, { dropped, live: makesRequests(api), notes });
  if (translatedTest !== undefined) files["test.yaml"] = translatedTest;
  return { source, name, status: notes.length ? "changed" : "imported", notes, files };
}

function translateInterface(input: { pkg: UnoversePackage; node: Record<string, unknown>; face: Record<string, unknown>; name: string; api: Record<string, unknown>; notes: string[]; origin: string; hostOrigins: readonly string[] }) {
  const { pkg, node, face, name, api, notes } = input;
  const credentials = (Array.isArray(face.credentials) ? face.credentials : []) as Array<Record<string, unknown>>;
  const hosts = (Array.isArray(pkg.manifest.allowedHosts) ? pkg.manifest.allowedHosts : []).filter((host): host is string => typeof host === "string");
  // A credential is bound to exact origins: a wildcard host (`*`, `**.amazonaws.com`) would match none, and reads as "anywhere".
  const wildcards = hosts.filter((host) => host.includes("*"));
  if (wildcards.length && credentialsDeclared(face)) notes.push(`allowedHosts wildcards not carried as credential origins: ${wildcards.join(", ")} (a credential is bound to exact origins; add others on the Credentials page)`);
  const origins = [...new Set([...hosts.filter((host) => !host.includes("*")).map((host) => `https://${host}`), ...literalOrigins(api, pkg), ...input.hostOrigins])].sort();
  const ignoredIdentity = ["color", "logoUrl", "auth", "capabilities", "template", "allowedHosts"].filter((key) => key in node);
  if (ignoredIdentity.length) notes.push(`node.yaml keys not carried: ${ignoredIdentity.join(", ")}`);
  return {
    name,
    title: stringOr(node.name, name),
    description: stringOr(node.description, stringOr(node.name, name)),
    ...(typeof node.whenToUse === "string" ? { whenToUse: node.whenToUse.trim() } : {}),
    category: stringOr(node.category, stringOr(pkg.manifest.displayName, pkg.name)),
    kind: node.kind === "CallbackNode" ? "CallbackNode" : "PromiseNode",
    ...(Array.isArray(face.inputs) ? { inputs: inputPorts(face.inputs as Array<Record<string, unknown>>, notes) } : {}),
    ...(Array.isArray(face.outputs) ? { outputs: face.outputs } : {}),
    ...(credentials.length
      ? {
          credentials: credentials.map((credential) => {
            const declared = pkg.credentials.get(String(credential.name));
            const fields = new Set<string>([
              ...((declared?.properties as Array<{ name?: unknown }> | undefined) ?? []).map((field) => String(field.name)),
              ...credentialFields(api, pkg, String(credential.name)),
            ]);
            return {
              name: credential.name,
              displayName: stringOr(credential.displayName, stringOr(declared?.displayName, String(credential.name))),
              required: credential.required !== false,
              fields: fields.size ? [...fields] : ["apiKey"],
              ...(typeof declared?.description === "string" ? { description: declared.description } : {}),
              ...(origins.length ? { origins } : {}),
            };
          }),
        }
      : {}),
    ...(Array.isArray(face.serviceConnectors) ? { serviceConnectors: face.serviceConnectors } : {}),
    source: { from: input.origin, license: "MIT", notes },
  };
}

/** Input keys Switchboard's ports have; others (Unoverse's `signal: CONTINUE` marker) are left out, with a note. */
const inputKeys = new Set(["name", "type", "description", "required"]);

function inputPorts(inputs: Array<Record<string, unknown>>, notes: string[]): unknown[] {
  const dropped = new Set<string>();
  const ports = inputs.map((input) => (input && typeof input === "object" ? Object.fromEntries(Object.entries(input).filter(([key]) => (inputKeys.has(key) ? true : (dropped.add(key), false)))) : input));
  if (dropped.size) notes.push(`input keys not carried: ${[...dropped].join(", ")}`);
  return ports;
}

/** `maxTurns: "{{ config.maxTurns }}"` needs a whole number: a `type: number` property it reads becomes `integer`. */
function wholeNumberLimits(config: unknown, exchange: unknown, notes: string[]): void {
  const properties = (config as { configSchema?: { properties?: Record<string, Record<string, unknown>> } }).configSchema?.properties ?? {};
  for (const key of ["maxTurns", "stuckAfterRepeats"]) {
    const template = (exchange as Record<string, unknown>)[key];
    const name = typeof template === "string" ? /^\{\{\s*config\.([A-Za-z_$][\w$]*)\s*\}\}$/.exec(template.trim())?.[1] : undefined;
    const property = name ? properties[name] : undefined;
    if (property?.type !== "number") continue;
    property.type = "integer";
    notes.push(`config ${name} typed integer (${key} is a whole number)`);
  }
}

function credentialsDeclared(face: Record<string, unknown>): boolean {
  return Array.isArray(face.credentials) && face.credentials.length > 0;
}

function addPlatformUrls(config: unknown, fields: readonly string[]): unknown {
  if (!fields.length) return config;
  const record = config as { configSchema: { properties: Record<string, unknown>; required?: string[] }; "ui:order"?: string[] };
  for (const field of fields) record.configSchema.properties[field] ??= { type: "string", title: platformUrls[field].title, default: "", description: platformUrls[field].description };
  record.configSchema.required = [...new Set([...(record.configSchema.required ?? []), ...fields])];
  if (record["ui:order"]) record["ui:order"] = [...record["ui:order"], ...fields.filter((name) => !record["ui:order"]?.includes(name))];
  return record;
}

function addSettings(config: unknown, settings: readonly ConnectionSetting[]): unknown {
  if (!settings.length) return config;
  const record = config as { configSchema: { properties: Record<string, unknown> }; "ui:order"?: string[] };
  for (const setting of settings) {
    record.configSchema.properties[setting.config] ??= { type: "string", title: setting.title, default: setting.default, description: "A connection setting (moved from the credential on import: a credential never chooses a host)." };
  }
  if (record["ui:order"]) record["ui:order"] = [...record["ui:order"], ...settings.map((setting) => setting.config).filter((name) => !record["ui:order"]?.includes(name))];
  return record;
}

function usesSharedSetting(api: Record<string, unknown>, pkg: UnoversePackage, setting: ConnectionSetting): boolean {
  return usedFragments(api, pkg).some((text) => text.includes(`credentials.${setting.credential}.${setting.field}`));
}

/** The text of each shared fragment the node's api/ files `$ref`. */
function usedFragments(api: Record<string, unknown>, pkg: UnoversePackage): string[] {
  const stems = [...JSON.stringify(api).matchAll(/"\$ref":"([^"#]+)/g)].map((match) => match[1]);
  return [...new Set(stems)].flatMap((stem) => pkg.shared.get(stem) ?? []);
}

function translateConfig(config: Record<string, unknown>, notes: string[], dropped: Set<string>): unknown {
  const schema = { ...((config.configSchema as Record<string, unknown>) ?? { type: "object" }) };
  const properties: Record<string, unknown> = {};
  const droppedKeys = new Set<string>();
  for (const [name, property] of Object.entries((schema.properties as Record<string, Record<string, unknown>>) ?? {})) {
    if (authFields.has(name)) {
      dropped.add(name);
      continue;
    }
    properties[name] = cleanProperty(property, droppedKeys);
  }
  if (dropped.size) notes.push(`config fields not carried: ${[...dropped].join(", ")} (Switchboard's roles decide who may run a workflow)`);
  if (droppedKeys.size) notes.push(`config keys not carried: ${[...droppedKeys].sort().join(", ")}`);
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((name) => !dropped.has(name)) : undefined;
  const order = Array.isArray(config["ui:order"]) ? (config["ui:order"] as string[]).filter((name) => !dropped.has(name)) : undefined;
  return { configSchema: { type: "object", properties, ...(required ? { required } : {}) }, ...(order ? { "ui:order": order } : {}) };
}

function cleanProperty(property: Record<string, unknown>, droppedKeys: Set<string>): Record<string, unknown> {
  if (property === null || typeof property !== "object") return property;
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(property)) {
    if (key === "placeholder" && typeof value === "string") clean["ui:placeholder"] = value;
    else if (key === "ui:widget" && !widgets.has(String(value))) droppedKeys.add(`ui:widget ${String(value)}`);
    else if (key === "properties" && value && typeof value === "object") clean.properties = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, cleanProperty(inner as Record<string, unknown>, droppedKeys)]));
    else if (key === "items" && value && typeof value === "object" && !Array.isArray(value)) clean.items = cleanProperty(value as Record<string, unknown>, droppedKeys);
    else if (schemaKeys.has(key)) clean[key] = value;
    else droppedKeys.add(key);
  }
  return clean;
}

/** Methods no connector lists could never be called (Switchboard's lint refuses them): they are left out, with a note. */
function listedMethods(service: Record<string, unknown>, face: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const connectors = (Array.isArray(face.serviceConnectors) ? face.serviceConnectors : []) as Array<{ isService?: unknown; methods?: unknown }>;
  const listed = new Set(connectors.filter((connector) => connector.isService === true).flatMap((connector) => (Array.isArray(connector.methods) ? connector.methods.map(String) : [])));
  if (!listed.size || !service || typeof service !== "object") return service;
  const unlisted = Object.keys(service).filter((name) => !listed.has(name));
  if (!unlisted.length) return service;
  notes.push(`methods not carried: ${unlisted.join(", ")} (no connector lists them, so nothing could call them)`);
  return Object.fromEntries(Object.entries(service).filter(([name]) => listed.has(name)));
}

function translateService(service: Record<string, unknown>, notes: string[]): unknown {
  const methods: Record<string, unknown> = {};
  const inferred: string[] = [];
  for (const [name, method] of Object.entries(service ?? {})) {
    if (!method || typeof method !== "object") continue;
    const { renderCards: _cards, ...rest } = method as Record<string, unknown>;
    const parameters = [...new Set([...JSON.stringify(rest).matchAll(/\bparams\.([A-Za-z_$][\w$]*)/g)].map((match) => match[1]))].sort();
    if (!("inputs" in rest)) inferred.push(name);
    methods[name] = {
      ...rest,
      ...(Array.isArray(rest.calls) ? { calls: dropCallKeys(rest.calls, notes, `method ${name}`) } : {}),
      inputs: rest.inputs ?? {
        type: "object",
        properties: Object.fromEntries(parameters.map((parameter) => [parameter, { description: `${parameter} (the original declares no schema for it)` }])),
        additionalProperties: true,
      },
    };
  }
  if (inferred.length) notes.push(`parameters of ${inferred.join(", ")} inferred from params.<name> (the original has no per-method schema)`);
  return methods;
}

function dropCallKeys(calls: unknown, notes: string[], where: string): unknown {
  if (!Array.isArray(calls)) return calls;
  return calls.map((call) => {
    if (!call || typeof call !== "object") return call;
    const kept: Record<string, unknown> = {};
    const removed: string[] = [];
    for (const [key, value] of Object.entries(call)) (callKeys.has(key) ? ((kept[key] = value), null) : removed.push(key));
    if (removed.length) notes.push(`${where}: call keys not carried: ${removed.join(", ")}`);
    return kept;
  });
}

function translateTest(test: Record<string, unknown>, options: { dropped: ReadonlySet<string>; live: boolean; notes: string[] }): unknown {
  const fromEnv = (value: unknown) => typeof value === "string" && /\{\{\s*env\./.test(value);
  let envReplaced = false;
  const clean = (testCase: Record<string, unknown>) => {
    const config = Object.fromEntries(
      Object.entries((testCase.config as Record<string, unknown>) ?? {})
        .filter(([name]) => !options.dropped.has(name))
        .map(([name, value]) => (fromEnv(value) ? ((envReplaced = true), [name, ""]) : [name, value])),
    );
    // Unoverse's expectations may call the result `result`; Switchboard's call it `output`.
    const expect = mapStrings(testCase.expect ?? {}, (text) => renameRoots(text, { result: "output" }));
    return { ...testCase, config, expect, ...(options.live ? { live: true } : {}) };
  };
  const seeds = (item: unknown) => item !== null && typeof item === "object" && "state" in item;
  if (Array.isArray(test.testData) ? test.testData.some(seeds) : seeds(test.testData)) {
    options.notes.push("test data not carried: it seeds the node's state before the case, which test.yaml cannot");
    return undefined;
  }
  const data = test.testData;
  const translated = Array.isArray(data) ? data.map((item) => clean(item as Record<string, unknown>)) : clean((data ?? {}) as Record<string, unknown>);
  if (envReplaced) options.notes.push("test values read from environment variables ({{ env.* }}) left empty: set them in the case before running it live");
  if (options.live) options.notes.push("test data reaches the real API: marked live (run with npm run nodes -- test --live)");
  return { testData: translated };
}

/** Does the node make HTTP requests (its test then needs the real API, as Unoverse tests carry no fixtures)? */
function makesRequests(api: Record<string, unknown>): boolean {
  const run = Array.isArray(api.run) ? api.run : [];
  if (run.some((call) => call && typeof call === "object" && !["state", "loop", "wait", "presign"].some((key) => key in call))) return true;
  return Object.values((api.service as Record<string, { calls?: unknown[] }>) ?? {}).some((method) => Array.isArray(method?.calls) && method.calls.length > 0);
}

/** `$ref: table#url` in package airtable → `$ref: airtable/table#url` (shared/airtable/table.yaml). */
export function rewriteRefs(value: unknown, pkg: UnoversePackage): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, pkg));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key === "$ref" && typeof item === "string") {
        const [stem, fragment] = item.split("#", 2);
        return [key, pkg.shared.has(stem) ? `${pkg.name}/${stem}${fragment === undefined ? "" : `#${fragment}`}` : item];
      }
      return [key, rewriteRefs(item, pkg)];
    }),
  );
}

/** The package's shared fragments as values (comments left out, so a link in a comment is not an origin). */
function sharedText(pkg: UnoversePackage): string {
  return [...pkg.shared.values()].map((text) => { try { return JSON.stringify(parse(text)); } catch { return ""; } }).join("\n");
}

function credentialFields(api: Record<string, unknown>, pkg: UnoversePackage, credential: string): string[] {
  const text = JSON.stringify(api) + sharedText(pkg);
  return [...new Set([...text.matchAll(new RegExp(`credentials\\.${credential}\\.([A-Za-z_][\\w]*)`, "g"))].map((match) => match[1]))];
}

/** The default of each config property (the node's config file, and the connection settings moved there). */
function configDefaults(configuration: unknown, settings: readonly ConnectionSetting[]): Map<string, string> {
  const defaults = new Map<string, string>();
  const properties = ((configuration as { configSchema?: { properties?: Record<string, { default?: unknown }> } } | undefined)?.configSchema?.properties) ?? {};
  for (const [key, property] of Object.entries(properties)) if (typeof property?.default === "string" && property.default) defaults.set(key, property.default);
  for (const setting of settings) if (setting.default && !defaults.has(setting.config)) defaults.set(setting.config, setting.default);
  return defaults;
}

/**
 * The origins of the URLs whose host has one label from config
 * (`'https://s3.' + config.region + '.amazonaws.com/'`), with the config's
 * default in it: where the node's credential goes unless the author changes
 * that setting (then the person adds the new origin to the credential).
 */
function configHostOrigins(values: readonly unknown[], defaults: ReadonlyMap<string, string>): string[] {
  const origins = new Set<string>();
  const walk = (value: unknown, key?: string) => {
    if (typeof value === "string") {
      if (key !== "url") return;
      const shape = expressionUrl(value);
      const label = shape?.kind === "config-host" ? defaults.get(shape.name) : undefined;
      if (shape?.kind === "config-host" && label && (shape.prefix || shape.suffix) && /^[A-Za-z0-9-]+$/.test(label)) {
        try {
          origins.add(new URL(`${shape.scheme}://${shape.prefix}${label}${shape.suffix}`).origin);
        } catch {
          // not a host: no origin
        }
      }
      return;
    }
    if (Array.isArray(value)) value.forEach((item) => walk(item, key));
    else if (value && typeof value === "object") for (const [name, item] of Object.entries(value)) walk(item, name);
  };
  values.forEach((value) => walk(value));
  return [...origins];
}

/** The literal origins the node's calls name: where its credentials may go. */
function literalOrigins(api: Record<string, unknown>, pkg: UnoversePackage): string[] {
  const text = JSON.stringify(api) + sharedText(pkg);
  return [...new Set([...text.matchAll(/https:\/\/[A-Za-z0-9.-]+\.[A-Za-z]{2,}(?=[/'"`?\s]|\\n)/g)].map((match) => match[0]))];
}

async function readOptional(file: string): Promise<unknown> {
  if (!(await exists(file))) return undefined;
  const value = parse(await readFile(file, "utf8")) as unknown;
  if (value && typeof value === "object" && !Array.isArray(value)) delete (value as Record<string, unknown>).$schema;
  return value ?? undefined;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value.trim() ? value.trim() : fallback;
}
