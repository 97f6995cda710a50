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
  await new Promise<void>((resolve, reject) => {
    const child = spawn(node22(), [cli, ...args, "--output-dir", options.outputDir], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "" } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.once("error", reject);
    // The suite exits non-zero when a scenario fails: the checks say which.
    child.once("close", () => {
      clearTimeout(timer);
      if (process.env.CONFORMANCE_VERBOSE) console.log(output);
      resolve();
    });
  });
  return readAllResults(options.outputDir);
}

/** The suite's scenario names for one side, from `conformance list`. */
export function listScenarios(side: "server" | "client"): string[] {
  const listing = execFileSync(node22(), [cli, "list"], { encoding: "utf8" });
  const section = listing.split(/\n(?=\w)/).find((part) => part.toLowerCase().startsWith(`${side} scenarios`)) ?? "";
  return [...section.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

/** Every scenario result under an output directory. */
export async function readAllResults(outputDir: string): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const file of await checkFiles(outputDir)) {
    const checks = JSON.parse(await readFile(file, "utf8")) as Array<{ id?: string; name?: string; status: string; errorMessage?: string; description?: string }>;
    const failed = checks.filter((check) => check.status === "FAILURE");
    const scenario = path.relative(outputDir, path.dirname(file)).replace(/-\d{4}-\d{2}-\d{2}T[^/]*$/, "");
    results.push({
      scenario,
      passed: failed.length === 0,
      checks: { passed: checks.filter((check) => check.status === "SUCCESS").length, failed: failed.length, warnings: checks.filter((check) => check.status === "WARNING").length },
      failures: failed.map((check) => `${check.id ?? check.name}: ${check.errorMessage ?? check.description ?? ""}`.slice(0, 300)),
    });
  }
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

async function checkFiles(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await checkFiles(full)));
    else if (entry.name === "checks.json") found.push(full);
  }
  return found;
}

/** The counts as `npm test` prints them: passed, not applicable (listed with the reason in docs), failed. */
export function summary(side: string, results: readonly ScenarioResult[], notApplicable: ReadonlyMap<string, string>): string {
  const passed = results.filter((result) => result.passed).length;
  const skipped = results.filter((result) => !result.passed && notApplicable.has(result.scenario)).length;
  const failed = results.length - passed - skipped;
  return `MCP conformance, ${side}: ${results.length} scenarios: ${passed} passed, ${skipped} not applicable (docs/mcp-conformance.md), ${failed} failed`;
}
