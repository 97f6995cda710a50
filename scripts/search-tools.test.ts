import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sampleTools } from "../lib/tools/search/sample-tools";
import { searchToolsCommand } from "./search-tools";

const folder = mkdtempSync(path.join(tmpdir(), "search-tools-"));

function file(name: string, content: string): string {
  const target = path.join(folder, name);
  writeFileSync(target, content);
  return target;
}

function run(argv: string[]): { code: number; out: string[]; error: string[] } {
  const out: string[] = [];
  const error: string[] = [];
  const code = searchToolsCommand(argv, { out: (text) => out.push(text), error: (text) => error.push(text) });
  return { code, out, error };
}

const toolsFile = file("tools.json", JSON.stringify(sampleTools));

describe("search-tools", () => {
  it("prints the ranked tools as JSON with their schemas", () => {
    const { code, out, error } = run(["--tools", toolsFile, "--query", "let the on-call engineer know the database is down", "--k", "2", "--json"]);
    expect(code).toBe(0);
    expect(error).toEqual([]);
    const rows = JSON.parse(out.join("\n")) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      server: "pagerduty",
      name: "create_incident",
      score: expect.any(Number),
      description: sampleTools[0].description,
      inputSchema: sampleTools[0].inputSchema,
    });
  });

  it("prints rank, score, server/name and description as text", () => {
    const { code, out } = run(["--tools", toolsFile, "--query", "turn 5 km into miles"]);
    expect(code).toBe(0);
    expect(out.join("\n")).toMatch(/^ 1\. +\d+\.\d{3} {2}calculator\/convertUnits\n +Convert a value/);
  });

  it("says so when nothing matches, and exits 0", () => {
    const { code, out } = run(["--tools", toolsFile, "--query", "zzyzx"]);
    expect(code).toBe(0);
    expect(out).toEqual(["no tool matches this query"]);
  });

  it.each([
    [["--tools", path.join(folder, "missing.json"), "--query", "x"], /missing\.json: no such file$/],
    [["--tools", file("broken.json", "[{"), "--query", "x"], /broken\.json: not valid JSON \(/],
    [["--tools", file("object.json", '{"tools": []}'), "--query", "x"], /object\.json: expected an array of tools, found an object$/],
    [["--tools", file("shape.json", '[{"server":"s","name":"n","description":"d"}]'), "--query", "x"], /shape\.json: tool 0 \(n\): "inputSchema" must be a JSON Schema object/],
    [["--tools", folder, "--query", "x"], /cannot be read \(EISDIR\)$/],
    [["--query", "x"], /--tools FILE\.json is required/],
    [["--tools", toolsFile], /--query TEXT is required/],
    [["--tools", toolsFile, "--query", "x", "--k", "0"], /--k must be a whole number of at least 1, got "0"/],
    [["--tools", toolsFile, "--query", "x", "--colour"], /Unknown option '--colour'/],
  ])("rejects bad input with one line and exit 2: %j", (argv, message) => {
    const { code, out, error } = run(argv);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(error).toHaveLength(1);
    expect(error[0]).toMatch(/^search-tools: /);
    expect(error[0]).toMatch(message);
    expect(error[0]).not.toMatch(/\n\s+at /);
  });
});
