import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { type CatalogueEntrySpec, catalogueFileSchema } from "./catalogue-file";

/** One catalogue entry as read: its spec, where it is written, and the executable it resolved to. */
export interface CatalogueEntry extends CatalogueEntrySpec {
  id: string;
  /** `file:line` of the entry, for messages. */
  place: string;
  /** The catalogue file's folder (`{{ folder }}`). */
  folder: string;
  /** The absolute path the command resolved to when the catalogue was read; null when it was not found. */
  executable: string | null;
}

export type StdioCatalogue = { ok: true; file: string; entries: readonly CatalogueEntry[] } | { ok: false; file: string; problem: string };

export const catalogueVariable = "SWITCHBOARD_STDIO_CATALOGUE";
export const catalogueFileName = "switchboard.stdio.json";
const maxCatalogueBytes = 1024 * 1024;

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Where the catalogue is: SWITCHBOARD_STDIO_CATALOGUE; else
 * switchboard.stdio.json next to the SQLite database (or in data/ on
 * Postgres) when the administrator put one there; else the catalogue the
 * project ships (its reference servers), at the project root.
 */
export function catalogueLocation(environment: Environment = process.env): string {
  const named = environment[catalogueVariable]?.trim();
  if (named) return path.resolve(/* turbopackIgnore: true */ named);
  const database = environment.DATABASE_URL ?? "file:./data/switchboard.db";
  const folder = database.startsWith("file:") ? path.dirname(database.slice("file:".length)) : "data";
  const beside = path.resolve(/* turbopackIgnore: true */ folder, catalogueFileName);
  return existsSync(beside) ? beside : path.resolve(/* turbopackIgnore: true */ catalogueFileName);
}

const cache = new Map<string, { stamp: string; catalogue: StdioCatalogue }>();

/** The machine's catalogue, read again only when its file changes. Never throws: a bad file is a catalogue with a problem. */
export function stdioCatalogueFromEnvironment(environment: Environment = process.env): StdioCatalogue {
  const file = catalogueLocation(environment);
  let stamp: string;
  try {
    const info = statSync(file);
    stamp = `${info.mtimeMs}:${info.size}:${environment.PATH ?? ""}`;
  } catch (error) {
    return { ok: false, file, problem: `${file}: the stdio catalogue cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  const cached = cache.get(file);
  if (cached?.stamp === stamp) return cached.catalogue;
  const catalogue = readStdioCatalogue(file, environment.PATH);
  cache.set(file, { stamp, catalogue });
  return catalogue;
}

/** Reads and checks one catalogue file; problems come back as `file:line: message`. */
export function readStdioCatalogue(file: string, searchPath = process.env.PATH): StdioCatalogue {
  let text: string;
  try {
    if (statSync(file).size > maxCatalogueBytes) return { ok: false, file, problem: `${file}: the stdio catalogue is larger than ${maxCatalogueBytes} bytes` };
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { ok: false, file, problem: `${file}: the stdio catalogue cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  return stdioCatalogueFromText(text, { file, searchPath });
}

/**
 * A catalogue from its text, e.g. in a test:
 *
 *   stdioCatalogueFromText(JSON.stringify({ servers: { … } }), { file: "/etc/switchboard.stdio.json" })
 */
export function stdioCatalogueFromText(text: string, options: { file: string; searchPath?: string }): StdioCatalogue {
  const { file } = options;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const line = text.slice(0, syntaxErrorOffset(text)).split("\n").length;
    return { ok: false, file, problem: `${file}:${line}: not valid JSON (${(error as Error).message})` };
  }
  const parsed = catalogueFileSchema.safeParse(value);
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  const lineOf = (at: ReadonlyArray<PropertyKey>) => lineAt(document, lines, at);
  if (!parsed.success) return { ok: false, file, problem: describeIssue(parsed.error, file, lineOf) };
  const folder = path.dirname(file);
  const entries = Object.entries(parsed.data.servers).map(([id, spec]) => ({
    ...spec,
    id,
    place: `${file}:${lineOf(["servers", id])}`,
    folder,
    executable: resolveExecutable(spec.command, options.searchPath ?? process.env.PATH ?? ""),
  }));
  return { ok: true, file, entries };
}

/**
 * Where JSON text stops being valid: the longest prefix that is still the
 * start of some JSON value ("Unexpected end" when parsed alone), found by
 * halving. Node names a position for only some mistakes.
 */
function syntaxErrorOffset(text: string): number {
  const startsValid = (length: number) => {
    try {
      JSON.parse(text.slice(0, length));
      return true;
    } catch (error) {
      // Running out of text shows as "end of JSON input" or as a position at the very end.
      const message = (error as Error).message;
      return /end of JSON input/.test(message) || Number(/at position (\d+)/.exec(message)?.[1]) === length;
    }
  };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (startsValid(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

function describeIssue(error: z.ZodError, file: string, lineOf: (at: ReadonlyArray<PropertyKey>) => number): string {
  const issue = error.issues[0];
  const at = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]] : issue.path;
  const field = at.map(String).join(".");
  const message = issue.code === "unrecognized_keys" ? `'${issue.keys[0]}' is not a field here` : issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return `${file}:${lineOf(at)}: ${field ? `${field}: ` : ""}${message}`;
}

/** The line of the deepest node of `at` that exists (1 when none does). */
function lineAt(document: ReturnType<typeof parseDocument>, lines: LineCounter, at: ReadonlyArray<PropertyKey>): number {
  for (let depth = at.length; depth > 0; depth--) {
    const node = document.getIn(at.slice(0, depth) as Array<string | number>, true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

/** An absolute command as it is; a bare name found once on PATH. Null when there is no such executable. */
function resolveExecutable(command: string, searchPath: string): string | null {
  const candidates = command.startsWith("/") ? [command] : searchPath.split(path.delimiter).filter((folder) => folder.startsWith("/")).map((folder) => path.join(folder, command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}
