/**
 * The broken-manifest corpus: every case in corpus/cases/ is a small change to
 * a valid tree of corpus/bases/, and names the rule, file and line the lint
 * must report for it. Cases that cannot be written as YAML text (binary
 * files, huge files, folders where files should be, a missing nodes folder)
 * are built here, one test each.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Catalogue, formatProblem, lintNodes, loadRules, nodeRules, type Problem, type Severity } from "..";
import { lintNodesCommand } from "../../../scripts/lint-nodes-command";
import { type CommandResult, runCommandInProcess } from "../../../testing/scripts/command-in-process.fixture";

const corpus = path.join(import.meta.dirname, "corpus");
const repositoryRoot = path.resolve(import.meta.dirname, "../../..");

/**
 * Rule ids no corpus case can produce from a tree a node author writes:
 * lint-internal means a rule crashed (a bug in Switchboard), so no input
 * should produce it. (file-unreadable for a node file needs a file the lint
 * may not read, which a test running as root cannot set up; the case
 * shared-is-a-file produces it for nodes/shared instead.)
 */
const uncoverable = new Set(["lint-internal"]);

const severityOf = new Map<string, Severity>([...loadRules, ...nodeRules].map((rule) => [rule.id, rule.severity]));

const expectation = z.strictObject({
  rule: z.string().refine((rule) => severityOf.has(rule), "not a rule id of nodeRules or loadRules"),
  /** Relative to the folder above nodes/, e.g. nodes/catalogue/interface.yaml. */
  file: z.string(),
  line: z.number().int().min(1),
  column: z.number().int().min(1).optional(),
  /** A piece of the message, when the message itself is what the case shows. */
  message: z.string().optional(),
  /** Only for findings whose severity differs from their rule's. */
  severity: z.enum(["error", "warning"]).optional(),
});

const corpusCase = z.strictObject({
  description: z.string().min(1),
  base: z.string().optional(),
  /** Paths relative to nodes/ → the whole text of the file. */
  files: z.record(z.string(), z.string()).default({}),
  /** Paths relative to nodes/ to delete from the base. */
  remove: z.array(z.string()).default([]),
  expect: z.array(expectation).min(1),
  /** Rules that must NOT be reported (a false positive the case guards against). */
  absent: z.array(z.strictObject({ rule: z.string(), file: z.string().optional() })).default([]),
  /** Set while a lint bug keeps the case from passing: the reason, for the lead. */
  skip: z.string().optional(),
});
type CorpusCase = z.infer<typeof corpusCase> & { name: string };

async function readCases(): Promise<CorpusCase[]> {
  const folder = path.join(corpus, "cases");
  const names = (await readdir(folder)).filter((name) => name.endsWith(".yaml")).sort();
  return Promise.all(
    names.map(async (name) => {
      let raw: unknown;
      try {
        raw = parse(await readFile(path.join(folder, name), "utf8"));
      } catch (error) {
        throw new Error(`corpus case ${name} is not valid YAML: ${(error as Error).message}`);
      }
      const parsed = corpusCase.safeParse(raw);
      if (!parsed.success) throw new Error(`corpus case ${name}: ${z.prettifyError(parsed.error)}`);
      return { ...parsed.data, name: name.slice(0, -".yaml".length) };
    }),
  );
}

const cases = await readCases();
const bases = (await readdir(path.join(corpus, "bases"))).sort();

/** Special cases built in code below, by the rule each one shows. */
const builtCaseRules = ["file-not-text", "file-too-large", "file-not-a-file", "missing-interface", "yaml-syntax", "ref-cycle", "nodes-folder-missing"];

const temporaryFolders: string[] = [];
afterAll(async () => {
  await Promise.all(temporaryFolders.map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A fresh temp folder holding `nodes/`, copied from a base when one is named. */
async function makeTree(base?: string): Promise<{ root: string; nodes: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), "switchboard-corpus-"));
  temporaryFolders.push(root);
  const nodes = path.join(root, "nodes");
  if (base) await cp(path.join(corpus, "bases", base), nodes, { recursive: true });
  else await mkdir(nodes);
  return { root, nodes };
}

async function writeTree(nodes: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const absolute = path.join(nodes, ...relative.split("/"));
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
  }
}

async function materialize(testCase: CorpusCase): Promise<{ root: string; nodes: string }> {
  if (testCase.base && !bases.includes(testCase.base)) throw new Error(`case ${testCase.name}: no base '${testCase.base}'`);
  const tree = await makeTree(testCase.base);
  await writeTree(tree.nodes, testCase.files);
  for (const relative of testCase.remove) await rm(path.join(tree.nodes, ...relative.split("/")), { recursive: true });
  return tree;
}

const show = (problems: readonly Problem[]) => problems.map(formatProblem).join("\n") || "(no problems)";

/** Asserts that the lint reported `rule` at `file:line`, with the rule's severity. */
function expectProblem(catalogue: Catalogue, expected: z.infer<typeof expectation>): void {
  const at = catalogue.problems.filter(
    (problem) =>
      problem.rule === expected.rule &&
      problem.file === expected.file &&
      problem.line === expected.line &&
      (expected.column === undefined || problem.column === expected.column),
  );
  const place = `${expected.file}:${expected.line}${expected.column ? `:${expected.column}` : ""}`;
  expect(at, `expected ${expected.rule} at ${place}; the lint reported:\n${show(catalogue.problems)}`).not.toHaveLength(0);
  const severity = expected.severity ?? severityOf.get(expected.rule);
  expect(at.map((problem) => problem.severity), `severity of ${expected.rule} at ${place}`).toContain(severity);
  if (expected.message) {
    expect(at.map((problem) => problem.message).join("\n"), `message of ${expected.rule} at ${place}`).toContain(expected.message);
  }
}

describe("the bases", () => {
  it.each(bases)("%s lints with no problem at all", async (base) => {
    const { nodes } = await makeTree(base);
    const catalogue = await lintNodes(nodes);
    expect(catalogue.problems, show(catalogue.problems)).toEqual([]);
    expect(catalogue.nodes.every((node) => node.manifest !== null)).toBe(true);
  });
});

describe("the corpus", () => {
  it("holds at least 45 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(45);
  });

  it("covers every rule id of nodeRules and loadRules with a case that runs", () => {
    const running = cases.filter((testCase) => !testCase.skip);
    const covered = new Set([...running.flatMap((testCase) => testCase.expect.map((expected) => expected.rule)), ...builtCaseRules]);
    const missing = [...severityOf.keys()].filter((rule) => !covered.has(rule) && !uncoverable.has(rule));
    expect(missing).toEqual([]);
  });

  const byName = (list: CorpusCase[]) => list.map((testCase) => [testCase.name, testCase] as const);
  it.each(byName(cases.filter((testCase) => !testCase.skip)))("%s", async (_name, testCase) => {
    const { nodes } = await materialize(testCase);
    const catalogue = await lintNodes(nodes);
    for (const expected of testCase.expect) expectProblem(catalogue, expected);
    for (const absent of testCase.absent) {
      const found = catalogue.problems.filter((problem) => problem.rule === absent.rule && (!absent.file || problem.file === absent.file));
      expect(found, `${absent.rule} must not be reported; the lint reported:\n${show(catalogue.problems)}`).toEqual([]);
    }
  });

  // Cases that show a lint bug, reported to the lead; each says why in its `skip`.
  it.skip.each(byName(cases.filter((testCase) => testCase.skip)))("%s", () => {});
});

const minimalInterface = (name: string) =>
  `name: ${name}\ntitle: ${name}\ndescription: A node of the corpus.\ncategory: Services\nkind: PromiseNode\n`;

describe("cases built in code", () => {
  it("a binary interface.yaml (NUL bytes) is file-not-text", async () => {
    const { nodes } = await makeTree();
    await writeTree(nodes, { "blob/interface.yaml": Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x00, 0x01, 0x02, 0xff]) });
    expectProblem(await lintNodes(nodes), { rule: "file-not-text", file: "nodes/blob/interface.yaml", line: 1 });
  });

  it("an interface.yaml that is not valid UTF-8 is file-not-text", async () => {
    const { nodes } = await makeTree();
    const latin1 = Buffer.concat([Buffer.from(minimalInterface("latin")), Buffer.from("whenToUse: caf\xe9\n", "latin1")]);
    await writeTree(nodes, { "latin/interface.yaml": latin1 });
    expectProblem(await lintNodes(nodes), { rule: "file-not-text", file: "nodes/latin/interface.yaml", line: 1 });
  });

  it("a 10 MB interface.yaml is file-too-large, without being parsed", async () => {
    const { nodes } = await makeTree();
    await writeTree(nodes, { "huge/interface.yaml": minimalInterface("huge") + `whenToUse: "${"x".repeat(10 * 1024 * 1024)}"\n` });
    expectProblem(await lintNodes(nodes), { rule: "file-too-large", file: "nodes/huge/interface.yaml", line: 1 });
  });

  it("a folder named interface.yaml is file-not-a-file", async () => {
    const { nodes } = await makeTree();
    await mkdir(path.join(nodes, "odd", "interface.yaml"), { recursive: true });
    const catalogue = await lintNodes(nodes);
    expectProblem(catalogue, { rule: "file-not-a-file", file: "nodes/odd/interface.yaml", line: 1 });
    expect(catalogue.problems.map((problem) => problem.rule)).not.toContain("missing-interface");
  });

  it("an empty node folder is missing-interface, and is still listed", async () => {
    const { nodes } = await makeTree("service");
    await mkdir(path.join(nodes, "empty"));
    const catalogue = await lintNodes(nodes);
    expectProblem(catalogue, { rule: "missing-interface", file: "nodes/empty/interface.yaml", line: 1, message: "empty folder" });
    expect(catalogue.nodes.find((node) => node.name === "empty")?.manifest).toBeNull();
  });

  it("a YAML alias bomb is yaml-syntax, refused without a crash", async () => {
    const { nodes } = await makeTree("service");
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let level = 1; level < 10; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(", ")}]`);
    }
    await writeTree(nodes, { "catalogue/test.yaml": `${levels.join("\n")}\n` });
    const catalogue = await lintNodes(nodes);
    expectProblem(catalogue, { rule: "yaml-syntax", file: "nodes/catalogue/test.yaml", line: 2 });
  });

  it("a $ref cycle between two protocols of shared/ is ref-cycle, at the $ref that closes it", async () => {
    const { nodes } = await makeTree("agent");
    await writeTree(nodes, {
      "shared/ping.yaml": "# ping leads to pong\n$ref: pong\nmaxTurns: 4\n",
      "shared/pong.yaml": "stuckAfterRepeats: 3\n$ref: ping\n",
      "demo-agent/api/toolExchange.yaml": "$ref: ping\n",
    });
    const catalogue = await lintNodes(nodes);
    expectProblem(catalogue, { rule: "ref-cycle", file: "nodes/shared/pong.yaml", line: 2, message: "ping → pong → ping" });
  });

  it("a nodes folder that does not exist is nodes-folder-missing", async () => {
    const { root } = await makeTree();
    const catalogue = await lintNodes(path.join(root, "missing"));
    expect(catalogue.nodes).toEqual([]);
    expectProblem(catalogue, { rule: "nodes-folder-missing", file: "missing", line: 1 });
  });

  it("a nodes path that is a file is nodes-folder-missing", async () => {
    const { root } = await makeTree();
    await writeFile(path.join(root, "plain"), "not a folder\n");
    expectProblem(await lintNodes(path.join(root, "plain")), { rule: "nodes-folder-missing", file: "plain", line: 1 });
  });
});

/**
 * `npm run lint:nodes -- ARGS`, called in this process from the repository's root, as tsx runs it (no
 * result cache). scripts/cli.test.ts starts the same command as a process, bundled and through tsx.
 */
function runCli(args: string[]): Promise<CommandResult> {
  expect(process.cwd()).toBe(repositoryRoot);
  return runCommandInProcess(lintNodesCommand, args, { SWITCHBOARD_CLI_BUILD: undefined });
}

describe("npm run lint:nodes", () => {
  const noStackTrace = (output: string) => expect(output.split("\n").filter((line) => /^\s+at /.test(line))).toEqual([]);

  it("reports a broken tree one problem a line, and as JSON rows, with exit code 1", async () => {
    const broken = cases.find((testCase) => testCase.name === "interface-unknown-key-titel");
    if (!broken) throw new Error("the CLI test needs the case interface-unknown-key-titel");
    const { nodes } = await materialize(broken);
    await writeTree(nodes, { "blob/interface.yaml": Buffer.from([0, 1, 2]), "stray.json": "{}\n" });

    const text = await runCli(["--dir", nodes]);
    expect(text.code, text.stderr).toBe(1);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line).toMatch(/^\S+:\d+:\d+ (error|warning) [a-z-]+ .+/);
    noStackTrace(text.stdout);
    noStackTrace(text.stderr);

    const json = await runCli(["--dir", nodes, "--format", "json"]);
    expect(json.code, json.stderr).toBe(1);
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(lines.length);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(["column", "file", "line", "message", "node", "rule", "severity"]);
      expect(row).toMatchObject({ file: expect.any(String), line: expect.any(Number), column: expect.any(Number), rule: expect.stringMatching(/^[a-z-]+$/) });
    }
    expect(rows.map((row) => row.rule)).toEqual(expect.arrayContaining(["unknown-key", "missing-key", "file-not-text", "unknown-file"]));
    // Each finding names its node folder; a file beside the node folders belongs to none.
    const blobRows = rows.filter((row) => String(row.file).includes("/blob/"));
    expect(blobRows.length).toBeGreaterThan(0);
    expect(blobRows.every((row) => row.node === "blob")).toBe(true);
    expect(rows.find((row) => String(row.file).endsWith("stray.json"))?.node).toBeNull();
    noStackTrace(json.stdout);
    noStackTrace(json.stderr);
  }, 60_000);

  it("exits 0 on a valid base", async () => {
    const { nodes } = await makeTree("agent");
    const result = await runCli(["--dir", nodes]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toBe("");
    noStackTrace(result.stderr);
  }, 60_000);
});
