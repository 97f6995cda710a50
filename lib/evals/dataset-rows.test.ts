import { describe, expect, it } from "vitest";
import { datasetFormatOf, DatasetRowError, readDatasetRows, type DatasetFormat, type DatasetRow } from "./dataset-rows";

/** The text as a byte stream cut into small chunks, so rows and multi-byte characters straddle chunk edges. */
async function* chunked(text: string, size = 7): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

async function rows(text: string, format: DatasetFormat, file = `golden.${format}`): Promise<DatasetRow[]> {
  const read: DatasetRow[] = [];
  for await (const row of readDatasetRows(chunked(text), { file, format })) read.push(row);
  return read;
}

async function failure(text: string, format: DatasetFormat): Promise<DatasetRowError> {
  const error = await rows(text, format).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DatasetRowError);
  return error as DatasetRowError;
}

describe("JSONL datasets", () => {
  it("read one row per line with its line, skipping blank lines; expected is optional", async () => {
    const text = ['{"input": {"question": "5 km in mile?"}, "expected": {"result": "3.11 mi"}}', "", '{"inputs": {"question": "Ünïcode °C"}}\r', '{"input": {"question": "x"}, "outputs": 3}'].join("\n");
    expect(await rows(text, "jsonl")).toEqual([
      { position: 0, line: 1, input: { question: "5 km in mile?" }, expected: { result: "3.11 mi" } },
      { position: 1, line: 3, input: { question: "Ünïcode °C" } },
      { position: 2, line: 4, input: { question: "x" }, expected: 3 },
    ]);
  });

  it("name file:line and the field of a malformed row", async () => {
    expect((await failure('{"input": {}}\n{"input": {}\n', "jsonl")).message).toMatch(/^golden\.jsonl:2: not valid JSON \(/);
    expect((await failure('{"input": {}}\n\n[1, 2]\n', "jsonl")).message).toBe('golden.jsonl:3: a row must be a JSON object like {"input": {...}, "expected": ...}, not an array');
    const missing = await failure('{"question": "hi"}', "jsonl");
    expect([missing.line, missing.field, missing.message]).toEqual([1, "input", 'golden.jsonl:1: input: missing: a row is {"input": {...}, "expected": ...}']);
    expect((await failure('{"input": "hi"}', "jsonl")).message).toBe('golden.jsonl:1: input: must be a JSON object (one property per input field), not string "hi"');
  });

  it("stream: rows come out before the source ends", async () => {
    let produced = 0;
    async function* endless(): AsyncGenerator<string> {
      for (;;) {
        produced += 1;
        yield `{"input": {"n": ${produced}}}\n`;
      }
    }
    const read: DatasetRow[] = [];
    for await (const row of readDatasetRows(endless(), { file: "endless.jsonl", format: "jsonl" })) {
      read.push(row);
      if (read.length === 3) break;
    }
    expect(read.map((row) => row.input.n)).toEqual([1, 2, 3]);
    expect(produced).toBeLessThan(10);
  });
});

describe("CSV datasets", () => {
  it("read input columns and expected.<name> columns, a quoted field spanning lines included", async () => {
    const text = 'question,input.unit,expected.result\n"5 km, in mile?",mile,3.11 mi\n"two\nlines",,\n\nplain,km,"say ""hi"""\n';
    expect(await rows(text, "csv")).toEqual([
      { position: 0, line: 2, input: { question: "5 km, in mile?", unit: "mile" }, expected: { result: "3.11 mi" } },
      { position: 1, line: 3, input: { question: "two\nlines" } },
      { position: 2, line: 6, input: { question: "plain", unit: "km" }, expected: { result: 'say "hi"' } },
    ]);
  });

  it("read an expected column as JSON", async () => {
    expect(await rows('question,expected\nq,"{""result"": 4}"\n', "csv")).toEqual([{ position: 0, line: 2, input: { question: "q" }, expected: { result: 4 } }]);
    const error = await failure("question,expected\nq,not json\n", "csv");
    expect([error.line, error.field]).toEqual([2, "expected"]);
  });

  it("name file:line of a row with too many cells, an unclosed quote and a bad header", async () => {
    const long = await failure("question,unit\na,b\nc,d,e\n", "csv");
    expect(long.message).toMatch(/^golden\.csv:3: /);
    expect((await failure('question\n"open\n', "csv")).message).toMatch(/^golden\.csv:\d+: .*quote/i);
    expect((await failure("question,question\na,b\n", "csv")).message).toBe("golden.csv:1: question: this column is named twice");
  });
});

describe("datasetFormatOf", () => {
  it("reads the format from the file name", () => {
    expect([datasetFormatOf("a.JSONL"), datasetFormatOf("b.ndjson"), datasetFormatOf("c.csv"), datasetFormatOf("d.json")]).toEqual(["jsonl", "jsonl", "csv", null]);
  });
});
