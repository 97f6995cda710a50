/** The `npm run lint:nodes` command (scripts/lint-nodes.ts), as a function a test can call in its own process. */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";

interface Row {
  node: string | null;
  file: string;
  line: number;
  column: number;
  severity: string;
  rule: string;
  message: string;
}

interface Result {
  nodes: number;
  rows: Row[];
  /** The text lines, as formatProblem writes them. */
  lines: string[];
}

const cacheFile = path.join(process.env.SWITCHBOARD_CLI_DIR ? path.resolve(process.env.SWITCHBOARD_CLI_DIR) : path.resolve(import.meta.dirname, "..", ".cli"), "lint-nodes-cache.json");

async function lint(dir: string): Promise<Result> {
  const { formatProblem, lintNodes } = await import("../lib/manifest");
  const catalogue = await lintNodes(dir, { displayBase: process.cwd() });
  return {
    nodes: catalogue.nodes.length,
    // `node` names the node folder a finding belongs to (null for nodes/shared/ and the folder itself).
    rows: catalogue.problems.map(({ file, line, column, severity, rule, message, node }) => ({ node: node ?? null, file, line, column, severity, rule, message })),
    lines: catalogue.problems.map((problem) => formatProblem(problem)),
  };
}

/** The lint's result, from the cache when neither the folder nor the lint's code changed since. */
async function cachedLint(dir: string, useCache: boolean): Promise<Result> {
  const build = process.env.SWITCHBOARD_CLI_BUILD;
  if (!useCache || !build) return lint(dir);
  // Only the version reader on a cache hit, not the whole lint.
  const { nodesVersion } = await import("../lib/manifest/nodes-version");
  const key = JSON.stringify([build, dir, process.cwd(), nodesVersion(dir)]);
  const kept = await readFile(cacheFile, "utf8").then((text) => JSON.parse(text) as { key: string; result: Result }, () => null);
  if (kept?.key === key) return kept.result;
  const result = await lint(dir);
  // Kept only when nothing changed while it ran.
  if (nodesVersion(dir) === JSON.parse(key)[3]) {
    const temporary = `${cacheFile}.${process.pid}`;
    await mkdir(path.dirname(cacheFile), { recursive: true });
    await writeFile(temporary, JSON.stringify({ key, result }))
      .then(() => rename(temporary, cacheFile))
      .catch(() => undefined);
  }
  return result;
}

async function main(args: string[]): Promise<number> {
  let options;
  try {
    options = parseArgs({
      args,
      options: { dir: { type: "string", default: "nodes" }, format: { type: "string", default: "text" }, "no-cache": { type: "boolean", default: false }, help: { type: "boolean", short: "h" } },
      allowPositionals: false,
    }).values;
  } catch (error) {
    console.error(`lint:nodes: ${(error as Error).message}\nusage: npm run lint:nodes -- [--dir DIR] [--format text|json] [--no-cache]`);
    return 2;
  }
  if (options.help) {
    console.log("usage: npm run lint:nodes -- [--dir DIR] [--format text|json] [--no-cache]\nChecks every node folder in DIR (default nodes/). Exit 1 when there is an error.\nAn unchanged folder is answered from the last lint's result (.cli/); --no-cache lints anyway.");
    return 0;
  }
  if (options.format !== "text" && options.format !== "json") {
    console.error(`lint:nodes: --format must be text or json, not '${options.format}'`);
    return 2;
  }
  const result = await cachedLint(path.resolve(options.dir), !options["no-cache"]);
  if (options.format === "json") {
    console.log(JSON.stringify(result.rows, null, 2));
  } else {
    for (const line of result.lines) console.log(line);
    const errors = result.rows.filter((row) => row.severity === "error").length;
    const warnings = result.rows.length - errors;
    console.error(`${result.nodes} nodes, ${errors} errors, ${warnings} warnings`);
  }
  return result.rows.some((row) => row.severity === "error") ? 1 : 0;
}

/**
 * `npm run lint:nodes -- ARGV` (scripts/lint-nodes.ts): prints the problems and answers the exit
 * code; an internal error is one line and 2, never a stack trace.
 */
export async function lintNodesCommand(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    // Only a bug in Switchboard reaches here; say so in one line.
    console.error(`lint:nodes: internal error: ${(error as Error).message ?? String(error)}`);
    return 2;
  }
}
