/**
 * npm run lint:nodes [-- --dir DIR] [--format json]
 * One line per problem, `file:line:col severity rule-id message`; exit 1 on any error.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { formatProblem, hasErrors, lintNodes } from "../lib/manifest";

async function main(): Promise<number> {
  let options;
  try {
    options = parseArgs({
      options: { dir: { type: "string", default: "nodes" }, format: { type: "string", default: "text" }, help: { type: "boolean", short: "h" } },
      allowPositionals: false,
    }).values;
  } catch (error) {
    console.error(`lint:nodes: ${(error as Error).message}\nusage: npm run lint:nodes -- [--dir DIR] [--format text|json]`);
    return 2;
  }
  if (options.help) {
    console.log("usage: npm run lint:nodes -- [--dir DIR] [--format text|json]\nChecks every node folder in DIR (default nodes/). Exit 1 when there is an error.");
    return 0;
  }
  if (options.format !== "text" && options.format !== "json") {
    console.error(`lint:nodes: --format must be text or json, not '${options.format}'`);
    return 2;
  }
  const catalogue = await lintNodes(path.resolve(options.dir), { displayBase: process.cwd() });
  const { problems } = catalogue;
  if (options.format === "json") {
    // `node` names the node folder a finding belongs to (null for nodes/shared/ and the folder itself).
    const rows = problems.map(({ file, line, column, severity, rule, message, node }) => ({ node: node ?? null, file, line, column, severity, rule, message }));
    console.log(JSON.stringify(rows, null, 2));
  } else {
    for (const problem of problems) console.log(formatProblem(problem));
    const errors = problems.filter((problem) => problem.severity === "error").length;
    const warnings = problems.length - errors;
    console.error(`${catalogue.nodes.length} nodes, ${errors} errors, ${warnings} warnings`);
  }
  return hasErrors(problems) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Only a bug in Switchboard reaches here; say so in one line.
    console.error(`lint:nodes: internal error: ${(error as Error).message ?? String(error)}`);
    process.exit(2);
  },
);
