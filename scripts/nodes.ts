/**
 * npm run nodes -- test [NAME...] [--dir DIR]
 * Runs the test.yaml cases of the named nodes (all when none is named).
 * Prints one line per case and "N passed, N failed"; exit 1 when any failed.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { agentCaseRunner } from "../lib/engine/node-tests/run-agent-case";
import { runNodeTests } from "../lib/engine/node-tests/run-node-tests";
import { lintNodes } from "../lib/manifest";
import { sharedSandbox } from "../lib/sandbox";

const usage = "usage: npm run nodes -- test [NAME...] [--dir DIR]";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { dir: { type: "string", default: "nodes" } }, allowPositionals: true });
  const [command, ...names] = positionals;
  if (command !== "test") {
    console.error(usage);
    return 2;
  }
  const catalogue = await lintNodes(path.resolve(values.dir), { displayBase: process.cwd() });
  const unknown = names.filter((name) => !catalogue.nodes.some((node) => node.name === name));
  if (unknown.length) {
    console.error(`nodes: no node called ${unknown.join(", ")} in ${values.dir}`);
    return 2;
  }
  const chosen = catalogue.nodes.filter((node) => names.length === 0 || names.includes(node.name));
  const unusable = chosen.filter((node) => !node.manifest);
  for (const node of unusable) console.log(`✗ ${node.name}: cannot be loaded (run npm run lint:nodes)`);
  const outcomes = await runNodeTests(chosen, { evaluator: await sharedSandbox(), runAgent: agentCaseRunner() });
  for (const outcome of outcomes) {
    const mark = outcome.status === "passed" ? "✓" : outcome.status === "skipped" ? "-" : "✗";
    console.log(`${mark} ${outcome.node}: ${outcome.name}`);
    for (const failure of outcome.failures) console.log(`    ${failure}`);
    if (outcome.status === "failed" && outcome.output !== undefined) console.log(`    output: ${JSON.stringify(outcome.output).slice(0, 500)}`);
  }
  const passed = outcomes.filter((outcome) => outcome.status === "passed").length;
  const failed = outcomes.filter((outcome) => outcome.status === "failed").length + unusable.length;
  const skipped = outcomes.length - passed - (failed - unusable.length);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`nodes: internal error: ${(error as Error).message ?? String(error)}`);
    process.exit(2);
  },
);
