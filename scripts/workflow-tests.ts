/**
 * Recorded runs as regression tests (docs/tests.md):
 *   pin RUN_ID [--name NAME] [--out DIR] [--json]
 *     Keeps a completed run as a case file (DIR, default SWITCHBOARD_CASES_DIR or tests/cases).
 *   test [PATH…] [--live-model] [--live-tools] [--junit FILE] [--json] [--parallel N] [--document FILE.json]
 *     Runs the cases (files, or folders searched for *.case.json / *.case.yaml; default the cases folder)
 *     through the run service against each workflow's current document, tools and model answering
 *     from the cassette. Exit 0 when all pass, 1 when any fails, 2 for bad input (a case file that
 *     cannot be read: file:line).
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createPrismaClient, databaseUrl, checkRunDatabase, isPostgresUrl } from "../lib/db";
import { junitReport, parseTestCase, PinError, TestCaseError } from "../lib/evals";
import { type CaseResult, casesDir, type CaseToRun, closeProcessRuns, keepRunAsTest, runService, runTestCases } from "../lib/runs";
import { commandUser } from "./command-user";

/** Bad input: printed as is, exit 2. */
export class TestsUsageError extends Error {}

const pinUsage = "usage: npm run workflow -- pin RUN_ID [--name NAME] [--out DIR] [--json]";
const testUsage = "usage: npm run workflow -- test [PATH…] [--live-model] [--live-tools] [--junit FILE] [--json] [--parallel N] [--document FILE.json]";

/** Paths on the command line are the caller's (npm run changes into the package's folder). */
function fromCaller(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

function shown(file: string): string {
  const relative = path.relative(process.env.INIT_CWD ?? process.cwd(), file);
  return relative.startsWith("..") ? file : relative;
}

export async function runPinCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { name: { type: "string" }, out: { type: "string" }, json: { type: "boolean", default: false } }, allowPositionals: true });
  } catch (error) {
    throw new TestsUsageError(`pin: ${(error as Error).message}\n${pinUsage}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new TestsUsageError(pinUsage);
  const url = await readyDatabase("pin");
  const prisma = createPrismaClient(url);
  try {
    const kept = await keepRunAsTest(prisma, positionals[0], { name: values.name, dir: values.out === undefined ? undefined : fromCaller(values.out) });
    const calls = kept.testCase.nodes.flatMap((node) => node.steps.filter((step) => step.kind === "tool-call")).length;
    const turns = kept.testCase.nodes.flatMap((node) => node.steps.filter((step) => step.kind === "model-turn")).length;
    console.log(values.json ? JSON.stringify({ file: kept.file, name: kept.testCase.name, turns, calls }) : `kept run ${positionals[0]} as ${shown(kept.file)} ("${kept.testCase.name}": ${turns} model turns, ${calls} tool calls)`);
    return 0;
  } catch (error) {
    if (error instanceof PinError) throw new TestsUsageError(`pin: ${error.message}`);
    throw error;
  } finally {
    await prisma.$disconnect();
  }
}

export async function runTestCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        "live-model": { type: "boolean", default: false },
        "live-tools": { type: "boolean", default: false },
        junit: { type: "string" },
        json: { type: "boolean", default: false },
        parallel: { type: "string", default: "4" },
        document: { type: "string" },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw new TestsUsageError(`test: ${(error as Error).message}\n${testUsage}`);
  }
  const { values, positionals } = parsed;
  const parallel = Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1) throw new TestsUsageError(`test: --parallel must be a whole number ≥ 1 (got ${values.parallel})`);
  const files = await caseFiles(positionals.length ? positionals.map(fromCaller) : [casesDir()]);
  if (files.length === 0) throw new TestsUsageError(`test: no case files (*.case.json, *.case.yaml) in ${positionals.length ? positionals.join(", ") : shown(casesDir())}`);
  const cases: CaseToRun[] = [];
  const problems: string[] = [];
  for (const file of files) {
    try {
      cases.push({ file: shown(file), testCase: parseTestCase(await readFile(file, "utf8"), shown(file)) });
    } catch (error) {
      if (!(error instanceof TestCaseError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length) throw new TestsUsageError(problems.join("\n"));
  let document: unknown;
  if (values.document !== undefined) {
    try {
      document = JSON.parse(await readFile(fromCaller(values.document), "utf8"));
    } catch (error) {
      throw new TestsUsageError(`test: --document ${values.document}: ${(error as Error).message}`);
    }
  }
  const url = await readyDatabase("test");
  const prisma = createPrismaClient(url);
  let results: CaseResult[];
  try {
    results = await runTestCases(cases, { liveModel: values["live-model"], liveTools: values["live-tools"], parallel, document, by: commandUser() }, { service: runService(), prisma, databaseUrl: url, log: (line) => console.error(line) });
  } finally {
    await prisma.$disconnect();
    await closeProcessRuns();
  }
  if (values.junit) {
    const report = junitReport(results.map((result) => ({ ...result, ...(result.runId === null ? { error: result.failures[0] } : {}) })), { hostname: os.hostname() || "localhost" });
    try {
      await writeFile(fromCaller(values.junit), report);
    } catch (error) {
      throw new TestsUsageError(`test: cannot write ${values.junit}: ${(error as Error).message}`);
    }
  }
  if (values.json) {
    console.log(JSON.stringify(results.map((result) => ({ file: result.file, name: result.name, pass: result.pass, runId: result.runId, durationMs: result.durationMs, failures: result.failures, firstDivergence: firstDivergence(result), diff: result.diff })), null, 2));
  } else {
    for (const result of results) console.log(describeResult(result));
    const failed = results.filter((result) => !result.pass).length;
    console.log(`\n${results.length - failed} passed, ${failed} failed${values.junit ? ` (JUnit report: ${values.junit})` : ""}`);
  }
  return results.every((result) => result.pass) ? 0 : 1;
}

function firstDivergence(result: CaseResult): string | null {
  const diff = result.runDiff;
  return diff && diff.firstDivergence !== null ? diff.pairs[diff.firstDivergence].key : null;
}

function describeResult(result: CaseResult): string {
  const head = `${result.pass ? "✓" : "✗"} ${result.name} (${result.file}) ${result.durationMs} ms`;
  if (result.pass) return head;
  const lines = [head, ...result.failures.map((failure) => `    ${failure}`)];
  if (result.diff) lines.push("", `    diff from the recorded run (a: recorded, b: this run${result.runId ? `, /runs/${result.runId}` : ""}):`, ...result.diff.split("\n").map((line) => `    ${line}`));
  return lines.join("\n");
}

/** The case files under the given files and folders, sorted; a named file is taken whatever its name. */
async function caseFiles(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of paths) {
    let info;
    try {
      info = await stat(entry);
    } catch {
      throw new TestsUsageError(`test: ${shown(entry)} does not exist`);
    }
    if (info.isFile()) found.push(entry);
    else for (const file of await readdir(entry, { recursive: true })) if (/\.case\.(json|ya?ml)$/.test(file)) found.push(path.join(entry, file));
  }
  return [...new Set(found)].sort();
}

/** The app's database, migrated first when it is a SQLite file not yet made (as `workflow run` does). */
async function readyDatabase(command: string): Promise<string> {
  const url = databaseUrl();
  const problem = await checkRunDatabase(url);
  if (problem && !isPostgresUrl(url) && command === "test") {
    const { migrateDatabase } = await import("./prepare-app");
    await migrateDatabase(url, (line) => console.error(line));
  } else if (problem) throw new TestsUsageError(`${command}: ${problem}`);
  return url;
}
