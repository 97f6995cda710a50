import { defineRule, type Finding } from "../rule";

export const nodeNameMismatch = defineRule({
  id: "node-name-mismatch",
  severity: "error",
  reads: ["interface"],
  summary: "`name` in interface.yaml equals the node's folder name.",
  check(node) {
    const name = node.parts.interface?.name;
    if (name === undefined || name === node.name) return [];
    return [{ in: "interface", path: ["name"], message: `name '${name}' differs from its folder '${node.name}'; rename one so they match` }];
  },
});

function duplicates<T>(items: readonly T[], nameOf: (item: T) => string): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  items.forEach((item, index) => {
    const name = nameOf(item);
    if (seen.has(name)) repeated.push(index);
    seen.add(name);
  });
  return repeated;
}

export const nameDuplicate = defineRule({
  id: "name-duplicate",
  severity: "error",
  reads: ["interface"],
  summary: "Input, output, credential and connector names are each unique within their list.",
  check(node) {
    const face = node.parts.interface;
    if (!face) return [];
    const lists = { inputs: face.inputs, outputs: face.outputs, credentials: face.credentials, serviceConnectors: face.serviceConnectors } as const;
    return Object.entries(lists).flatMap(([list, items]) =>
      duplicates(items as ReadonlyArray<{ name: string }>, (item) => item.name).map(
        (index): Finding => ({ in: "interface", path: [list, index, "name"], message: `${list} has '${(items as ReadonlyArray<{ name: string }>)[index].name}' more than once; names must be unique` }),
      ),
    );
  },
});

export const titleDuplicate = defineRule({
  id: "title-duplicate",
  severity: "warning",
  reads: ["interface"],
  summary: "No two nodes share a title, so the palette tells them apart.",
  check(node, catalogue) {
    const title = node.parts.interface?.title;
    if (!title) return [];
    const first = catalogue.nodes.find((other) => other.parts.interface?.title === title);
    if (!first || first === node) return [];
    return [{ in: "interface", path: ["title"], message: `title '${title}' is also the title of ${first.name}; give each node its own title` }];
  },
});

/** Verbs tool names commonly start with; a tool name should say what it does. */
const verbs = new Set(
  "add analyze answer append apply approve archive ask assign attach book build calculate call cancel check classify clear close compare compute convert copy count create delete describe detect download draft edit enrich estimate evaluate execute explain export extract fetch file fill filter find format generate geocode get import index inspect invite join label list load locate lookup make merge move notify open order parse pause pay plan play post predict preview publish put query rank read record refresh register reject remove rename render reply report request reserve reset resolve restart restore resume retrieve review run save scan schedule score search select send set share sign start stop store submit subscribe summarize sync tag test track transcribe transfer transform translate trigger unsubscribe update upload upsert validate verify watch write"
    .split(" "),
);

/** The first word of a camelCase, snake_case or kebab-case name, lower-cased. */
export function firstWord(name: string): string {
  return name.split(/[_-]|(?=[A-Z])/)[0].toLowerCase();
}

export const toolNameVerb = defineRule({
  id: "tool-name-verb",
  severity: "warning",
  reads: ["service"],
  summary: "A tool (service method) name starts with a verb that says what it does, e.g. findProduct, not product.",
  check(node) {
    return Object.keys(node.parts.service ?? {})
      .filter((method) => !verbs.has(firstWord(method)))
      .map((method): Finding => ({ in: "service", path: [method], at: "key", message: `tool name '${method}' does not start with a verb; name it for what it does, e.g. get${method[0].toUpperCase()}${method.slice(1)} or find…` }));
  },
});
