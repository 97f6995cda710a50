import { readFile, stat } from "node:fs/promises";
import { CORE_SCHEMA, load as loadFast } from "js-yaml";
import { type Document, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Node as YamlNode } from "yaml";
import type { Problem, Severity } from "./problem";

/** Manifests are small; anything bigger is a mistake (or an attack) and is not parsed. */
export const maxManifestBytes = 1024 * 1024;

export type YamlPath = ReadonlyArray<string | number>;

export interface Position {
  line: number;
  column: number;
}

/** One YAML file, parsed, with its source positions (worked out when first asked for). */
export interface SourceFile {
  /** Path as shown in problems, e.g. `nodes/weather/api/service.yaml`. */
  file: string;
  readonly document: Document;
  readonly lineCounter: LineCounter;
  /** The plain value; undefined when the file could not be parsed. */
  value: unknown;
}

/** An alias (`*name`) anywhere in the text: such files take the careful parser, which counts aliases. */
const aliasPattern = /(^|[\s[{,:-])\*[^\s,\]}]/m;

/** A problem at a place in a file. */
export function problemAt(
  file: string,
  position: Position,
  rule: string,
  message: string,
  severity: Severity = "error",
): Problem {
  return { file, line: position.line, column: position.column, severity, rule, message };
}

const fileStart: Position = { line: 1, column: 1 };

type ReadResult = { source: SourceFile; problems: Problem[] } | { source: null; problems: Problem[] };

/**
 * Reads and parses one manifest. Never throws: a folder where a file should
 * be, an unreadable, binary or oversized file, bad YAML and alias bombs all
 * come back as problems at a line and column.
 */
export async function readSourceFile(absolutePath: string, file: string): Promise<ReadResult> {
  const fail = (rule: string, message: string): ReadResult => ({
    source: null,
    problems: [problemAt(file, fileStart, rule, message)],
  });
  let text: string;
  try {
    const info = await stat(absolutePath);
    if (!info.isFile()) return fail("file-not-a-file", `${file} must be a file, but it is a folder or another kind of entry`);
    if (info.size > maxManifestBytes) {
      return fail("file-too-large", `${file} is ${info.size} bytes; manifests are limited to ${maxManifestBytes} bytes`);
    }
    const bytes = await readFile(absolutePath);
    if (bytes.includes(0)) return fail("file-not-text", `${file} is not a text file (it holds NUL bytes)`);
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    if (error instanceof TypeError) return fail("file-not-text", `${file} is not valid UTF-8 text`);
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    return fail("file-unreadable", `${file} cannot be read (${code}); check that it exists and is readable`);
  }
  return parseSource(text, file);
}

/**
 * Parses YAML text into a SourceFile plus its syntax problems. Clean files
 * without aliases take a fast parser for their value, and the positional
 * parse happens only when a problem needs a line; anything unusual (a syntax
 * error, a duplicate key, an alias) takes the careful parser from the start,
 * so every message and position comes from one parser.
 */
export function parseSource(text: string, file: string): { source: SourceFile; problems: Problem[] } {
  if (!aliasPattern.test(text)) {
    try {
      const value = loadFast(text, { schema: CORE_SCHEMA, json: false });
      return { source: lazySource(text, file, value), problems: [] };
    } catch {
      // fall through: the careful parser reports the problem with its position
    }
  }
  return parseCarefully(text, file);
}

function lazySource(text: string, file: string, value: unknown): SourceFile {
  let parsed: { document: Document; lineCounter: LineCounter } | undefined;
  const positions = () => {
    if (!parsed) {
      const lineCounter = new LineCounter();
      parsed = { document: parseDocument(text, { lineCounter, prettyErrors: false, logLevel: "error" }), lineCounter };
    }
    return parsed;
  };
  return {
    file,
    value,
    get document() {
      return positions().document;
    },
    get lineCounter() {
      return positions().lineCounter;
    },
  };
}

function parseCarefully(text: string, file: string): { source: SourceFile; problems: Problem[] } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: "error" });
  const problems: Problem[] = [];
  const position = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  for (const error of document.errors) {
    problems.push(problemAt(file, position(error.pos[0]), "yaml-syntax", `YAML: ${firstLine(error.message)}`));
  }
  for (const warning of document.warnings) {
    problems.push(problemAt(file, position(warning.pos[0]), "yaml-syntax", `YAML: ${firstLine(warning.message)}`, "warning"));
  }
  let value: unknown;
  if (document.errors.length === 0) {
    const alias = firstAlias(document);
    const aliasPosition = alias?.range ? position(alias.range[0]) : fileStart;
    try {
      value = document.toJS({ maxAliasCount: 100 });
    } catch (error) {
      problems.push(problemAt(file, aliasPosition, "yaml-syntax", `YAML: ${firstLine((error as Error).message)}`));
    }
    if (value !== undefined && isCyclic(value)) {
      problems.push(problemAt(file, aliasPosition, "yaml-syntax", "YAML: an alias refers to the value that contains it, which would never end; copy the value instead"));
      value = undefined;
    }
  }
  return { source: { file, document, lineCounter, value }, problems };
}

function firstAlias(document: Document): YamlNode | undefined {
  let found: YamlNode | undefined;
  visit(document, {
    Alias(_, node) {
      found = node as unknown as YamlNode;
      return visit.BREAK;
    },
  });
  return found;
}

/** True when a value contains itself (a self-referring alias); such values would hang every walk over them. */
function isCyclic(value: unknown, ancestors = new Set<object>()): boolean {
  if (value === null || typeof value !== "object") return false;
  if (ancestors.has(value)) return true;
  ancestors.add(value);
  const children = Array.isArray(value) ? value : Object.values(value);
  const cyclic = children.some((child) => isCyclic(child, ancestors));
  ancestors.delete(value);
  return cyclic;
}

function firstLine(message: string): string {
  return message.split("\n")[0].trim();
}

/**
 * Where a path is in a file: the key when `at` is "key" (for unknown keys),
 * else the value. When the path does not exist, the deepest part that does.
 */
export function locate(source: SourceFile, path: YamlPath, at: "key" | "value" = "value"): Position {
  let node: unknown = source.document.contents;
  let found: { range?: [number, number, number] | null } | null = (node as YamlNode | null) ?? null;
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    const isLast = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) break;
      const key = pair.key as YamlNode;
      if (isLast && at === "key") return rangeStart(source, key);
      found = (pair.value as YamlNode | null) ?? key;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number") {
      const item = node.items[segment] as YamlNode | undefined;
      if (!item) break;
      found = item;
      node = item;
    } else {
      break;
    }
  }
  return found ? rangeStart(source, found) : fileStart;
}

function rangeStart(source: SourceFile, node: { range?: [number, number, number] | null }): Position {
  if (!node.range) return fileStart;
  const { line, col } = source.lineCounter.linePos(node.range[0]);
  return { line, column: col };
}

/** True when the file has a value at exactly this path. */
export function hasPath(source: SourceFile, path: YamlPath): boolean {
  return source.document.hasIn(path as Array<string | number>);
}
