/**
 * npm run nodes -- test [NAME...] [--dir DIR] [--live]
 * npm run nodes -- import DIR [--into nodes/imported] [--dry-run] [--json]
 * test: runs the test.yaml cases of the named nodes (all when none is named);
 * one line per case and "N passed, N failed"; exit 1 when any failed.
 * import: see scripts/import-nodes.ts.
 */
import path from "node:path";
import { parseArgs } from "node:util";

// Each command imports what it needs when it runs.

const usage = `usage: npm run nodes -- test [NAME...] [--dir DIR] [--live]
       npm run nodes -- import DIR [--into DIR] [--dry-run] [--json]

  test    runs the test.yaml cases of the named nodes (all when none is named) against
          their fixture servers; cases marked live: true need the real API and are
          skipped unless --live is given
  import  reads a Unoverse node package tree (a marketplace checkout, one package or one
          node) and writes Switchboard node folders (default into nodes/imported/, which
          is not part of the repository), with a report per node`;

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        dir: { type: "string", default: "nodes" },
        into: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        live: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      allowPositionals: true,
    });
  } catch (error) {
    console.error(`nodes: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...names] = positionals;
  if (values.help || command === "help") {
    console.log(usage);
    return 0;
  }
  if (command === "import") return (await import("./import-nodes")).importCommand(names, { into: values.into, dryRun: values["dry-run"], json: values.json });
  if (command !== "test") {
    console.error(command ? `nodes: unknown command '${command}'\n${usage}` : usage);
    return 2;
  }
  const [{ agentCaseRunner, runNodeTests }, { lintNodes }, { sharedSandbox }] = await Promise.all([
    import("../lib/engine"),
    import("../lib/manifest"),
    import("../lib/sandbox"),
  ]);
  const catalogue = await lintNodes(path.resolve(values.dir), { displayBase: process.cwd() });
  const unknown = names.filter((name) => !catalogue.nodes.some((node) => node.name === name));
  if (unknown.length) {
    console.error(`nodes: no node called ${unknown.join(", ")} in ${values.dir}`);
    return 2;
  }
  const chosen = catalogue.nodes.filter((node) => names.length === 0 || names.includes(node.name));
  const unusable = chosen.filter((node) => !node.manifest);
  for (const node of unusable) console.log(`✗ ${node.name}: cannot be loaded (run npm run lint:nodes)`);
  const outcomes = await runNodeTests(chosen, { evaluator: await sharedSandbox(), runAgent: agentCaseRunner(), live: values.live });
  for (const outcome of outcomes) {
    const mark = outcome.status === "passed" ? "✓" : outcome.status === "skipped" ? "-" : "✗";
    if (outcome.status === "skipped") {
      console.log(`${mark} ${outcome.node}: ${outcome.name} (skipped: ${outcome.failures.join("; ")})`);
      continue;
    }
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
