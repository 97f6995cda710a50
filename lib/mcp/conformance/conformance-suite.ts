import { execFileSync, spawn } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";

export interface ScenarioResult {
  scenario: string;
  /** Every check passed (warnings allowed). */
  passed: boolean;
  checks: { passed: number; failed: number; warnings: number };
  /** The failed checks' ids and messages. */
  failures: string[];
  /** Where the suite wrote it; absent for a scenario that left nothing. */
  directory?: string;
  /** The scenario left no checks: it ran past its time limit, or its process died. */
  unfinished?: boolean;
}

/** Node 22 for the suite (scripts/ensure-node22.sh installs it from the npm registry once). */
export function node22(): string {
  return execFileSync("bash", [path.resolve("scripts/ensure-node22.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

const cli = path.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");

/**
 * Runs the MCP conformance suite (@modelcontextprotocol/conformance, on
 * Node 22) with the given arguments and reads each scenario's checks from
 * its output directory (checks.json), so the counts do not depend on how
 * the suite prints.
 */
export async function runConformance(args: string[], options: { outputDir: string; timeoutMs: number; keep?: boolean }): Promise<ScenarioResult[]> {
  if (!options.keep) await rm(options.outputDir, { recursive: true, force: true });
  let killed = false;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(node22(), [cli, ...args, "--output-dir", options.outputDir], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "" } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.once("error", reject);
    // The suite exits non-zero when a scenario fails: the checks say which.
    child.once("close", () => {
      clearTimeout(timer);
      if (process.env.CONFORMANCE_VERBOSE) console.log(output);
      resolve();
    });
  });
  const results = await readAllResults(options.outputDir);
  if (!killed) return results;
  const limit = { scenario: `conformance ${args.slice(0, 3).join(" ")}`, passed: false, checks: { passed: 0, failed: 1, warnings: 0 }, failures: [`the suite ran past its ${options.timeoutMs / 1000} s limit and was stopped`], unfinished: true };
  return [...results, limit];
}

/** The suite's scenario names for one side, from `conformance list`. */
export function listScenarios(side: "server" | "client"): string[] {
  const listing = execFileSync(node22(), [cli, "list"], { encoding: "utf8" });
  const section = listing.split(/\n(?=\w)/).find((part) => part.toLowerCase().startsWith(`${side} scenarios`)) ?? "";
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

/** A scenario's output directory: its name, then the time it started. */
const scenarioDirectory = /-\d{4}-\d{2}-\d{2}T[^/]*$/;

/**
 * Every scenario result under an output directory. The suite makes a
 * scenario's directory when the scenario starts and writes checks.json when
 * it ends: a directory without one is a scenario that did not finish, and
 * counts as failed.
 */
export async function readAllResults(outputDir: string): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const directory of await scenarioDirectories(outputDir)) {
    const scenario = path.relative(outputDir, directory).replace(scenarioDirectory, "");
    const checks = await readChecks(path.join(directory, "checks.json"));
    if (checks === null) {
      results.push({ scenario, passed: false, checks: { passed: 0, failed: 1, warnings: 0 }, failures: [noResult], directory, unfinished: true });
      continue;
    }
    const failed = checks.filter((check) => check.status === "FAILURE");
    results.push({
      scenario,
      passed: failed.length === 0,
      checks: { passed: checks.filter((check) => check.status === "SUCCESS").length, failed: failed.length, warnings: checks.filter((check) => check.status === "WARNING").length },
      failures: failed.map((check) => `${check.id ?? check.name}: ${check.errorMessage ?? check.description ?? ""}`.slice(0, 300)),
      directory,
    });
  }
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

type Check = { id?: string; name?: string; status: string; errorMessage?: string; description?: string };

/** A scenario's checks; null while there are none yet (not written, or half written by a scenario still running beside this read). */
async function readChecks(file: string): Promise<Check[] | null> {
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const checks = JSON.parse(text) as unknown;
    return Array.isArray(checks) ? (checks as Check[]) : null;
  } catch {
    return null;
  }
}

const noResult = "no result: the scenario ran past its time limit or its process ended without writing its checks";

async function scenarioDirectories(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory()) continue;
    const full = path.join(directory, entry.name);
    if (scenarioDirectory.test(entry.name)) found.push(full);
    else found.push(...(await scenarioDirectories(full)));
  }
  return found;
}

/**
 * A result for every listed scenario: one the suite left no checks for (it
 * ran past its time limit, or its process died) is a failure, not a
 * scenario that quietly drops out of the count.
 */
export function withMissing(listed: readonly string[], results: readonly ScenarioResult[]): ScenarioResult[] {
  const seen = new Set(results.map((result) => result.scenario));
  const missing = listed
    .filter((scenario) => !seen.has(scenario))
    .map((scenario) => ({ scenario, passed: false, checks: { passed: 0, failed: 1, warnings: 0 }, failures: [noResult], unfinished: true }));
  return [...results, ...missing].sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** The counts as `npm test` prints them: passed, not applicable (listed with the reason in docs), failed. */
export function summary(side: string, results: readonly ScenarioResult[], notApplicable: ReadonlyMap<string, string>): string {
  const passed = results.filter((result) => result.passed).length;
  const skipped = results.filter((result) => !result.passed && notApplicable.has(result.scenario)).length;
  const failed = results.length - passed - skipped;
  return `MCP conformance, ${side}: ${results.length} scenarios: ${passed} passed, ${skipped} not applicable (docs/mcp-conformance.md), ${failed} failed`;
}
