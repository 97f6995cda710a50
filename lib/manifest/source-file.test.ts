import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasPath, locate, maxManifestBytes, parseSource, readSourceFile } from "./source-file";

const manifest = [
  "# a node", // 1
  "name: catalogue", // 2
  "kind: PromiseNode", // 3
  "serviceConnectors:", // 4
  "  - name: mcpService", // 5
  "    methods:", // 6
  "      - findProducts", // 7
  "      - readProduct", // 8
  "    instructions: >-", // 9
  "      Search first.", // 10
  "credentials: []", // 11
  "",
].join("\n");

describe("parseSource", () => {
  it("parses YAML into its value, with no problem", () => {
    const { source, problems } = parseSource(manifest, "nodes/catalogue/interface.yaml");
    expect(problems).toEqual([]);
    expect(source.file).toBe("nodes/catalogue/interface.yaml");
    expect(source.value).toMatchObject({ name: "catalogue", serviceConnectors: [{ methods: ["findProducts", "readProduct"] }] });
  });

  it("reports a duplicate key as yaml-syntax at the second key, and gives no value", () => {
    const { source, problems } = parseSource("name: a\ntitle: A\nname: b\n", "x.yaml");
    expect(source.value).toBeUndefined();
    expect(problems).toEqual([expect.objectContaining({ rule: "yaml-syntax", severity: "error", line: 3, column: 1 })]);
  });

  it("reports tab indentation at its line", () => {
    const { problems } = parseSource("a:\n\tb: 1\n", "x.yaml");
    expect(problems[0]).toMatchObject({ rule: "yaml-syntax", line: 2, column: 1, message: expect.stringContaining("Tabs") });
  });

  it("reports a second document at its separator", () => {
    const { problems } = parseSource("a: 1\n---\nb: 2\n", "x.yaml");
    expect(problems[0]).toMatchObject({ rule: "yaml-syntax", line: 2 });
  });

  it("keeps YAML warnings as warnings, with a value", () => {
    const { source, problems } = parseSource("a: !unknown 1\n", "x.yaml");
    expect(problems).toEqual([expect.objectContaining({ rule: "yaml-syntax", severity: "warning", line: 1 })]);
    expect(source.value).toEqual({ a: "1" });
  });

  it("refuses an alias bomb quickly, as one yaml-syntax problem", () => {
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let level = 1; level < 12; level++) {
      const name = `l${level}`;
      const previous = level === 1 ? "a" : `l${level - 1}`;
      lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(", ")}]`);
    }
    const { source, problems } = parseSource(lines.join("\n"), "bomb.yaml");
    expect(source.value).toBeUndefined();
    expect(problems).toEqual([expect.objectContaining({ rule: "yaml-syntax", severity: "error", message: expect.stringContaining("alias") })]);
  });

  it("gives the first line of a multi-line YAML message only", () => {
    const { problems } = parseSource('a: "open\n', "x.yaml");
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem.message).not.toContain("\n");
  });

  it("reports an unresolved alias at the alias", () => {
    const { problems } = parseSource("a: 1\nb: *missing\n", "x.yaml");
    expect(problems[0]).toMatchObject({ rule: "yaml-syntax", line: 2, column: 4 });
  });
});

describe("locate", () => {
  const { source } = parseSource(manifest, "interface.yaml");

  it("points at a value by default", () => {
    expect(locate(source, ["name"])).toEqual({ line: 2, column: 7 });
    expect(locate(source, ["serviceConnectors", 0, "methods", 1])).toEqual({ line: 8, column: 9 });
  });

  it("points at the key when asked", () => {
    expect(locate(source, ["kind"], "key")).toEqual({ line: 3, column: 1 });
    expect(locate(source, ["serviceConnectors", 0, "instructions"], "key")).toEqual({ line: 9, column: 5 });
  });

  it("points at a block value where it starts: the item of a list, the indicator of a scalar", () => {
    expect(locate(source, ["serviceConnectors", 0])).toEqual({ line: 5, column: 5 });
    expect(locate(source, ["serviceConnectors", 0, "methods"])).toEqual({ line: 7, column: 7 });
    expect(locate(source, ["serviceConnectors", 0, "instructions"])).toEqual({ line: 9, column: 19 });
  });

  it("points at the root for an empty path", () => {
    expect(locate(source, [])).toEqual({ line: 2, column: 1 });
  });

  it("falls back to the deepest part of the path that exists", () => {
    expect(locate(source, ["serviceConnectors", 0, "isService"])).toEqual({ line: 5, column: 5 });
    expect(locate(source, ["serviceConnectors", 3, "name"])).toEqual({ line: 5, column: 3 });
    expect(locate(source, ["title"])).toEqual({ line: 2, column: 1 });
    expect(locate(source, ["name", "deeper"])).toEqual({ line: 2, column: 7 });
  });

  it("finds keys written as numbers or booleans by their text", () => {
    const { source: codes } = parseSource("okOn:\n  404: not found\n  true: yes\n", "x.yaml");
    expect(locate(codes, ["okOn", "404"])).toEqual({ line: 2, column: 8 });
    expect(locate(codes, ["okOn", "true"], "key")).toEqual({ line: 3, column: 3 });
  });

  it("gives line 1 for an empty file", () => {
    const { source: empty } = parseSource("", "x.yaml");
    expect(locate(empty, ["name"])).toEqual({ line: 1, column: 1 });
  });
});

describe("hasPath", () => {
  const { source } = parseSource(manifest, "interface.yaml");
  it("is true only for a path that is written", () => {
    expect(hasPath(source, ["serviceConnectors", 0, "methods", 1])).toBe(true);
    expect(hasPath(source, ["credentials"])).toBe(true);
    expect(hasPath(source, ["serviceConnectors", 0, "isService"])).toBe(false);
    expect(hasPath(source, ["serviceConnectors", 1])).toBe(false);
  });
});

describe("readSourceFile", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), "switchboard-source-file-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const read = async (name: string, content?: string | Buffer) => {
    const absolute = path.join(folder, name);
    if (content !== undefined) await writeFile(absolute, content);
    return readSourceFile(absolute, `nodes/x/${name}`);
  };
  const onlyProblem = (result: Awaited<ReturnType<typeof readSourceFile>>) => {
    expect(result.source).toBeNull();
    expect(result.problems).toHaveLength(1);
    return result.problems[0];
  };

  it("reads and parses a manifest", async () => {
    const result = await read("good.yaml", "name: x\n");
    expect(result.problems).toEqual([]);
    expect(result.source?.value).toEqual({ name: "x" });
  });

  it("refuses a folder as file-not-a-file", async () => {
    await mkdir(path.join(folder, "folder.yaml"));
    expect(onlyProblem(await read("folder.yaml"))).toMatchObject({ rule: "file-not-a-file", file: "nodes/x/folder.yaml", line: 1, column: 1 });
  });

  it("refuses NUL bytes and invalid UTF-8 as file-not-text", async () => {
    expect(onlyProblem(await read("nul.yaml", Buffer.from([0x61, 0x3a, 0x00])))).toMatchObject({ rule: "file-not-text", line: 1 });
    expect(onlyProblem(await read("latin1.yaml", Buffer.from("a: caf\xe9\n", "latin1")))).toMatchObject({ rule: "file-not-text", line: 1 });
  });

  it("refuses a file over the limit as file-too-large, and accepts one at the limit", async () => {
    expect(onlyProblem(await read("big.yaml", `# ${"x".repeat(maxManifestBytes)}\n`))).toMatchObject({ rule: "file-too-large", line: 1 });
    const atLimit = await read("limit.yaml", `#${"x".repeat(maxManifestBytes - 2)}\n`);
    expect(atLimit.problems).toEqual([]);
  });

  it("reports a file that cannot be read as file-unreadable, with its error code", async () => {
    const problem = onlyProblem(await read("gone.yaml"));
    expect(problem).toMatchObject({ rule: "file-unreadable", line: 1 });
    expect(problem.message).toContain("ENOENT");
  });
});
