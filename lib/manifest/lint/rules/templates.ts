import { parseTemplate, TemplateSyntaxError, templatePaths } from "../../../sandbox/template-syntax";
import type { LoadedNode } from "../../load-catalogue";
import { didYouMeanSuffix } from "../../did-you-mean";
import { checkExpression, knownRoots, type RootReference } from "../expression-syntax";
import { defineRule, type Finding, type Rule } from "../rule";
import { type TemplateSite, templateSites } from "../template-sites";

type Reference = RootReference & { second?: string; expression: boolean };

type Reading = { references: Reference[] } | { syntax: string };
/** Readings by text: the same protocol fragments and snippets recur across nodes, and parsing them is most of the lint's time. */
const readingsByText = new Map<string, Reading>();
const maxCachedReadings = 20_000;

/** The roots each template or expression reads, or why it cannot be read (cached by its text: a reading depends on nothing else). */
function readSite(site: TemplateSite): Reading {
  let reading = readingsByText.get(site.text);
  if (!reading) {
    reading = readText(site);
    if (readingsByText.size >= maxCachedReadings) readingsByText.clear();
    readingsByText.set(site.text, reading);
  }
  return reading;
}

function readText(site: TemplateSite): Reading {
  let parsed;
  try {
    parsed = parseTemplate(site.text);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) return { syntax: `template ${JSON.stringify(site.text.slice(0, 80))}: ${error.message}` };
    throw error;
  }
  if (parsed.kind === "expression") {
    const checked = checkExpression(parsed.source);
    if (!checked.ok) return { syntax: `the return expression does not parse: ${checked.message} (line ${checked.line} of the expression)` };
    return { references: checked.references.map((reference) => ({ ...reference, expression: true })) };
  }
  return {
    references: templatePaths(parsed).map((path) => ({ root: path.segments[0], property: path.segments[1], second: path.segments[2], expression: false })),
  };
}

type SiteReading = { site: TemplateSite; read: ReturnType<typeof readSite> };
const readings = new WeakMap<LoadedNode, SiteReading[]>();

/** Every template site of a node, parsed once and shared by the template rules. */
function readNode(node: LoadedNode): SiteReading[] {
  let cached = readings.get(node);
  if (!cached) {
    cached = templateSites(node).map((site) => ({ site, read: readSite(site) }));
    readings.set(node, cached);
  }
  return cached;
}

function templateRule(
  id: string,
  summary: string,
  reads: Rule["reads"],
  check: (site: TemplateSite, references: Reference[], node: LoadedNode) => string[],
): Rule {
  return defineRule({
    id,
    severity: "error",
    reads,
    summary,
    check(node) {
      return readNode(node).flatMap(({ site, read }): Finding[] => {
        if ("syntax" in read) return [];
        return check(site, read.references, node).map((message) => ({ in: site.in, path: site.path, message }));
      });
    },
  });
}

export const templateSyntax = defineRule({
  id: "template-syntax",
  severity: "error",
  reads: [],
  summary: "Every `{{ path }}` template is well formed and every `return` expression parses as JavaScript.",
  check(node) {
    return readNode(node).flatMap(({ site, read }): Finding[] => {
      return "syntax" in read ? [{ in: site.in, path: site.path, message: read.syntax }] : [];
    });
  },
});

export const templateUnknownRoot = templateRule(
  "template-unknown-root",
  "Templates and expressions read only the roots their place allows (params, config, inputs, calls, response, status, credentials, user, and the exchange's own).",
  [],
  (site, references) =>
    references
      .filter((reference) => !site.roots.has(reference.root) && reference.root !== "credentials")
      .map((reference) =>
        knownRoots.has(reference.root) || !reference.expression
          ? `'${reference.root}' cannot be read here; this place can read: ${[...site.roots].sort().join(", ")}`
          : `'${reference.root}' is not defined here, so the expression would fail at run time; this place can read: ${[...site.roots].sort().join(", ")}`,
      ),
);

export const credentialsScope = templateRule(
  "credentials-scope",
  "`credentials.<name>.<field>` is read only as a template inside a call's `credential` or `headers`, never in `returns`, bodies or expressions.",
  [],
  (site, references) =>
    references
      .filter((reference) => reference.root === "credentials" && (reference.expression || !site.roots.has("credentials")))
      .map(() =>
        "credentials can only be read as a {{ credentials.<name>.<field> }} template inside a call's credential or headers, so secrets never reach results, models or traces",
      ),
);

export const credentialUnknown = templateRule(
  "credential-unknown",
  "`credentials.<name>.<field>` names a credential declared in interface.yaml and one of its `fields`.",
  ["interface"],
  (site, references, node) => {
    if (!node.parts.interface) return [];
    const declared = node.parts.interface.credentials;
    const names = declared.map((credential) => credential.name);
    return references.flatMap((reference) => {
      if (reference.root !== "credentials" || !site.roots.has("credentials") || reference.expression || !reference.property) return [];
      const credential = declared.find((candidate) => candidate.name === reference.property);
      if (!credential) return [`credential '${reference.property}' is not declared in interface.yaml credentials${didYouMeanSuffix(reference.property, names)}`];
      if (reference.second && !credential.fields.includes(reference.second)) {
        return [`credential '${credential.name}' has no field '${reference.second}'; its fields are: ${credential.fields.join(", ")}`];
      }
      return [];
    });
  },
);

export const templateUnknownConfig = templateRule(
  "template-unknown-config",
  "`config.<name>` names a property of config.yaml.",
  ["config"],
  (site, references, node) => {
    const properties = Object.keys(node.parts.config?.configSchema.properties ?? {});
    return references
      .filter((reference) => reference.root === "config" && site.roots.has("config") && reference.property && !properties.includes(reference.property))
      .map((reference) =>
        node.files.has("config")
          ? `config.${reference.property} is not a property of config.yaml${didYouMeanSuffix(reference.property ?? "", properties)}`
          : `config.${reference.property} is read, but the node has no config.yaml declaring it`,
      );
  },
);

export const templateUnknownCall = templateRule(
  "template-unknown-call",
  "`calls.<name>` names an earlier call of the same list.",
  ["run", "service"],
  (site, references) =>
    references
      .filter((reference) => reference.root === "calls" && site.roots.has("calls") && reference.property && !site.calls.includes(reference.property))
      .map((reference) => `calls.${reference.property} is not an earlier call here${site.calls.length ? `; earlier calls: ${site.calls.join(", ")}` : " (no call comes before this one)"}`),
);
