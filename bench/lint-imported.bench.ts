/**
 * Lint time per node over the imported catalogue: imports a Unoverse
 * marketplace checkout (never part of this repository) into a temporary
 * folder, copies its nodes up to 500 folders (the shared/ fragments once),
 * and lints them, in milliseconds per node (target: under 2 ms), against a
 * baseline in the same process: reading and parsing the same YAML files.
 *
 *   npx tsx bench/lint-imported.bench.ts DIR [count]
 *   (DIR: a checkout of unoverse-platform/marketplace; or MARKETPLACE_DIR)
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CORE_SCHEMA, load } from "js-yaml";
import { lintNodes } from "../lib/manifest";
import { medianTime } from "./median-time";
import { importPackages } from "../lib/manifest/import";

const source = process.argv[2] ?? process.env.MARKETPLACE_DIR;
const count = Number(process.argv[3] ?? 500);
if (!source) {
  console.log("lint-imported: skipped (give a marketplace checkout: npx tsx bench/lint-imported.bench.ts DIR, or set MARKETPLACE_DIR)");
  process.exit(0);
}

async function yamlFiles(folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await yamlFiles(full)));
    else if (entry.name.endsWith(".yaml")) files.push(full);
  }
  return files;
}

const root = await mkdtemp(path.join(os.tmpdir(), "switchboard-bench-imported-"));
try {
  const imported = path.join(root, "imported");
  const report = await importPackages(source, { into: imported });
  const names = report.nodes.filter((node) => node.status !== "not-importable" && node.lint.errors === 0).map((node) => node.name);
  const nodes = path.join(root, "nodes");
  await cp(path.join(imported, "shared"), path.join(nodes, "shared"), { recursive: true });
  for (let index = 0; index < count; index++) {
    const template = names[index % names.length];
    const name = `${template}-${index}`;
    await cp(path.join(imported, template), path.join(nodes, name), { recursive: true });
    const file = path.join(nodes, name, "interface.yaml");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace(/^name: .*$/m, `name: ${name}`).replace(/^title: (.*)$/m, `title: $1 ${index}`));
  }
  const check = await lintNodes(nodes);
  const errors = check.problems.filter((problem) => problem.severity === "error");
  if (errors.length) throw new Error(`the copied imported nodes should lint clean; first error: ${errors[0].rule} ${errors[0].message}`);
  console.log(`${count} node folders copied from ${names.length} imported nodes (${report.clean} of ${report.nodes.length} imported clean)`);
  const files = await yamlFiles(nodes);
  const baseline = await medianTime("baseline: read + parse YAML only", count, async () => {
    for (let index = 0; index < files.length; index += 128) {
      await Promise.all(files.slice(index, index + 128).map(async (file) => load(await readFile(file, "utf8"), { schema: CORE_SCHEMA })));
    }
  }, 3);
  const full = await medianTime("load + $ref + schemas + lint", count, () => lintNodes(nodes), 3);
  console.log(`ratio to baseline: ${(full / baseline).toFixed(2)}x; per node: ${(full / count).toFixed(3)} ms (target < 2 ms)`);
} finally {
  await rm(root, { recursive: true, force: true });
}
