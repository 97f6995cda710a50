import { parse as parseCsv, CsvError } from "csv-parse";

/** How a dataset file is written: one JSON object per line, or a CSV file with a header row. */
export type DatasetFormat = "jsonl" | "csv";

/** One row of a dataset: the Start's input, and the expected End outputs when the file gives them. */
export interface DatasetRow {
  /** 0-based, in file order. */
  position: number;
  /** The line of the file the row starts on (1-based). */
  line: number;
  input: Record<string, unknown>;
  /** Absent when the row gives no expected output. */
  expected?: unknown;
}

/**
 * A row the file gets wrong, at file:line and, when one is at fault, the
 * field: `golden.jsonl:12: input: must be a JSON object, not an array`.
 * The person who wrote the file fixes it.
 */
export class DatasetRowError extends Error {
  override name = "DatasetRowError";
  readonly code = "dataset-row";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${field ? `${field}: ` : ""}${reason}`);
  }
}

/** The format a file name says (`.jsonl`, `.ndjson`, `.csv`), or null. */
export function datasetFormatOf(fileName: string): DatasetFormat | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  if (lower.endsWith(".csv")) return "csv";
  return null;
}

/**
 * The rows of a dataset file, read as the chunks come: one line (JSONL) or
 * one record (CSV) at a time, so a file of any length is never held whole.
 * Throws a DatasetRowError at the first malformed row.
 *
 * JSONL: `{"input": {...}, "expected": ...}` per line (LangSmith's `inputs`
 * and `outputs` are read too); blank lines are skipped.
 * CSV: a header row; a column `expected.<name>` is that expected output,
 * `expected` the whole expected value as JSON; `input.<name>` or any other
 * column is an input field. Empty cells are left out.
 *
 * @example
 * for await (const row of readDatasetRows(createReadStream("golden.jsonl"), { file: "golden.jsonl", format: "jsonl" })) …
 */
export function readDatasetRows(source: AsyncIterable<Uint8Array | string>, options: { file: string; format: DatasetFormat }): AsyncGenerator<DatasetRow> {
  return options.format === "csv" ? csvRows(source, options.file) : jsonlRows(source, options.file);
}

async function* jsonlRows(source: AsyncIterable<Uint8Array | string>, file: string): AsyncGenerator<DatasetRow> {
  let position = 0;
  let line = 0;
  for await (const text of lines(source)) {
    line += 1;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new DatasetRowError(file, line, null, `not valid JSON (${(error as Error).message})`);
    }
    yield { position: position++, line, ...jsonlRow(value, file, line) };
  }
}

function jsonlRow(value: unknown, file: string, line: number): Pick<DatasetRow, "input" | "expected"> {
  if (!isPlainObject(value)) throw new DatasetRowError(file, line, null, `a row must be a JSON object like {"input": {...}, "expected": ...}, not ${describe(value)}`);
  const inputField = "input" in value ? "input" : "inputs" in value ? "inputs" : null;
  if (!inputField) throw new DatasetRowError(file, line, "input", `missing: a row is {"input": {...}, "expected": ...}`);
  const input = value[inputField];
  if (!isPlainObject(input)) throw new DatasetRowError(file, line, inputField, `must be a JSON object (one property per input field), not ${describe(input)}`);
  const expectedField = "expected" in value ? "expected" : "outputs" in value ? "outputs" : null;
  return expectedField && value[expectedField] !== undefined ? { input, expected: value[expectedField] } : { input };
}

/** Text lines of a byte or text stream, decoded as UTF-8 across chunk edges; a final line without a newline counts. */
async function* lines(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let pending = "";
  for await (const chunk of source) {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = pending.indexOf("\n")) >= 0) {
      yield stripReturn(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
  }
  pending += decoder.decode();
  if (pending !== "") yield stripReturn(pending);
}

function stripReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

async function* csvRows(source: AsyncIterable<Uint8Array | string>, file: string): AsyncGenerator<DatasetRow> {
  const parser = parseCsv({ bom: true, skip_empty_lines: true, info: true, relax_column_count: false });
  const feeding = (async () => {
    try {
      for await (const chunk of source) if (!parser.write(chunk)) await new Promise((resolve) => parser.once("drain", resolve));
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let header: string[] | null = null;
  let position = 0;
  let lastLine = 0;
  let emptyLines = 0;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number; empty_lines: number } }>) {
      // A record ends on info.lines; it starts after the previous one and the blank lines skipped since (quoted fields may span lines).
      const line = header === null ? 1 : lastLine + 1 + (item.info.empty_lines - emptyLines);
      lastLine = item.info.lines;
      emptyLines = item.info.empty_lines;
      if (header === null) {
        header = checkHeader(item.record, file);
        continue;
      }
      yield { position: position++, line, ...csvRow(header, item.record, file, line) };
    }
  } catch (error) {
    if (error instanceof CsvError) throw new DatasetRowError(file, Number((error as CsvError & { lines?: number }).lines ?? lastLine + 1), null, error.message.replace(/^Invalid Record Length: /, "").replace(/ on line \d+$/, ""));
    throw error;
  } finally {
    parser.destroy();
    await feeding;
  }
}

function checkHeader(columns: string[], file: string): string[] {
  const names = columns.map((column) => column.trim());
  const seen = new Set<string>();
  names.forEach((name, index) => {
    if (name === "") throw new DatasetRowError(file, 1, `column ${index + 1}`, "the header names no column here");
    if (seen.has(name)) throw new DatasetRowError(file, 1, name, "this column is named twice");
    seen.add(name);
  });
  return names;
}

function csvRow(header: readonly string[], cells: readonly string[], file: string, line: number): Pick<DatasetRow, "input" | "expected"> {
  const input: Record<string, unknown> = {};
  let expected: unknown;
  let named: Record<string, unknown> | undefined;
  header.forEach((column, index) => {
    const cell = cells[index];
    if (cell === undefined || cell === "") return;
    if (column === "expected") {
      try {
        expected = JSON.parse(cell);
      } catch {
        throw new DatasetRowError(file, line, "expected", "must be JSON (e.g. {\"result\": \"42 km\"}); name the column expected.<output> for text");
      }
    } else if (column.startsWith("expected.")) {
      named ??= {};
      named[column.slice("expected.".length)] = cell;
    } else input[column.startsWith("input.") ? column.slice("input.".length) : column] = cell;
  });
  if (named) expected = isPlainObject(expected) ? { ...expected, ...named } : named;
  return expected === undefined ? { input } : { input, expected };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
