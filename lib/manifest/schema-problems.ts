import type { z } from "zod";
import { didYouMeanSuffix } from "./did-you-mean";
import type { Problem } from "./problem";
import { locate, problemAt, type SourceFile, type YamlPath } from "./source-file";

/** Where a path of a (possibly merged) value comes from: a file and the path inside it. */
export type Locator = (path: YamlPath, at: "key" | "value") => { source: SourceFile; path: YamlPath };

/** The default locator: the value was read from this one file as written. */
export function sameFile(source: SourceFile): Locator {
  return (path) => ({ source, path });
}

/**
 * Checks a value against a manifest schema and turns every zod issue into a
 * problem at its line: unknown keys (with "did you mean"), missing keys and
 * invalid values each get their own rule id.
 */
export function checkSchema<T extends z.ZodType>(
  schema: T,
  value: unknown,
  locator: Locator,
): { data: z.infer<T> | undefined; problems: Problem[] } {
  const result = schema.safeParse(value);
  if (result.success) return { data: result.data, problems: [] };
  const problems = result.error.issues.flatMap((issue) => issueProblems(schema, issue, value, locator));
  return { data: undefined, problems: dedupe(problems) };
}

function issueProblems(schema: z.ZodType, issue: z.core.$ZodIssue, value: unknown, locator: Locator): Problem[] {
  const path = issue.path as Array<string | number>;
  if (issue.code === "unrecognized_keys") {
    const known = objectKeysAt(schema, path);
    return issue.keys.map((key) => {
      const place = locator([...path, key], "key");
      const where = path.length ? ` in ${describePath(path)}` : "";
      return at(place, "unknown-key", `unknown key '${key}'${where}${didYouMeanSuffix(key, known)}`, "key");
    });
  }
  if (issue.code === "invalid_union") {
    const nested = issue.errors.flat().filter((inner) => inner.code !== "invalid_type" || inner.path.length > 0);
    if (nested.length > 0 && issue.errors.length > 0) {
      // Report the branch that got furthest, so the message speaks of the field that is wrong.
      const deepest = [...nested].sort((a, b) => b.path.length - a.path.length)[0];
      return issueProblems(schema, { ...deepest, path: [...path, ...deepest.path] } as z.core.$ZodIssue, value, locator);
    }
  }
  const place = locator(path, "value");
  // A key that is not there is missing, whatever the schema expected of it (an enum such as `kind` included).
  if ((issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union") && path.length > 0 && valueAt(value, path) === undefined && isMap(valueAt(value, path.slice(0, -1)))) {
    const name = path.length ? `'${path[path.length - 1]}'` : "a value";
    const parent = path.length > 1 ? ` in ${describePath(path.slice(0, -1))}` : "";
    const parentPlace = locator(path.slice(0, -1), "value");
    const expected = issue.code === "invalid_type" ? friendlyType(issue.expected) : issue.code === "invalid_value" ? `one of ${issue.values.map((option) => JSON.stringify(option)).join(", ")}` : "see docs/nodes.md";
    return [at(parentPlace, "missing-key", `${name} is required${parent} (${expected})`)];
  }
  if (path.length === 0 && (value === null || value === undefined)) {
    return [at(place, "invalid-value", "the file is empty; it must hold the keys this file defines (see docs/nodes.md)")];
  }
  const field = path.length ? `${describePath(path)}: ` : "";
  return [at(place, "invalid-value", `${field}${issue.message}`)];
}

function at(place: { source: SourceFile; path: YamlPath }, rule: string, message: string, target: "key" | "value" = "value"): Problem {
  return problemAt(place.source.file, locate(place.source, place.path, target), rule, message);
}

/** Zod's type names in the words of a YAML author. */
function friendlyType(expected: string): string {
  const words: Record<string, string> = { object: "a map", record: "a map", array: "a list", string: "text", number: "a number", int: "a whole number", boolean: "true or false" };
  return words[expected] ?? expected;
}

/** `a.b[2].c` for messages. */
export function describePath(path: YamlPath): string {
  return path.reduce<string>((text, segment) => (typeof segment === "number" ? `${text}[${segment}]` : text ? `${text}.${segment}` : segment), "");
}

function valueAt(value: unknown, path: YamlPath): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[segment as string];
  }
  return current;
}

function isMap(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.file}:${problem.line}:${problem.column}:${problem.rule}:${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type Definition = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
  in?: z.ZodType;
};

/** The keys an object schema accepts at a path, for "did you mean". */
export function objectKeysAt(schema: z.ZodType, path: YamlPath): string[] {
  const keys = new Set<string>();
  collectKeys(schema, path, keys, 0);
  return [...keys];
}

function collectKeys(schema: z.ZodType, path: YamlPath, keys: Set<string>, depth: number): void {
  if (depth > 40) return;
  const definition = (schema as unknown as { _zod: { def: Definition } })._zod.def;
  const next = (inner: z.ZodType | undefined, rest: YamlPath) => inner && collectKeys(inner, rest, keys, depth + 1);
  switch (definition.type) {
    case "optional":
    case "default":
    case "nullable":
    case "readonly":
    case "prefault":
      return next(definition.innerType, path);
    case "lazy":
      return next(definition.getter?.(), path);
    case "pipe":
      return next(definition.in, path);
    case "union":
      for (const option of definition.options ?? []) next(option, path);
      return;
    case "array":
      return path.length ? next(definition.element, path.slice(1)) : undefined;
    case "record":
      return path.length ? next(definition.valueType, path.slice(1)) : undefined;
    case "object":
      if (path.length === 0) {
        for (const key of Object.keys(definition.shape ?? {})) keys.add(key);
        return;
      }
      return next(definition.shape?.[String(path[0])], path.slice(1));
  }
}
