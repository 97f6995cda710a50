/**
 * Loading and linting 500 generated node folders, in milliseconds per node
 * (target: under 2 ms per node), against a baseline in the same process:
 * reading and parsing the same YAML files, in parallel, with the same fast
 * parser, and nothing checked: the floor any loader pays.
 *
 *   npx tsx bench/lint-nodes.bench.ts [count]
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CORE_SCHEMA, load } from "js-yaml";
import { lintNodes } from "../lib/manifest";
import { medianTime } from "./median-time";

const count = Number(process.argv[2] ?? 500);
const templates = ["weather", "github", "unit-converter", "http-request", "openai-agent", "anthropic-agent", "offline-agent"];

async function generate(root: string): Promise<void> {
  const nodes = path.join(root, "nodes");
  await cp(path.resolve("nodes/shared"), path.join(nodes, "shared"), { recursive: true });
  for (let index = 0; index < count; index++) {
    const template = templates[index % templates.length];
    const name = `${template}-${index}`;
    await cp(path.resolve("nodes", template), path.join(nodes, name), { recursive: true });
    const file = path.join(nodes, name, "interface.yaml");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace(/^name: .*$/m, `name: ${name}`).replace(/^title: (.*)$/m, `title: $1 ${index}`));
  }
}

async function parseOnly(nodes: string): Promise<number> {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith(".yaml")) files.push(full);
    }
  };
  await walk(nodes);
  for (let index = 0; index < files.length; index += 128) {
    await Promise.all(files.slice(index, index + 128).map(async (file) => load(await readFile(file, "utf8"), { schema: CORE_SCHEMA })));
  }
  return files.length;
}

const root = await mkdtemp(path.join(os.tmpdir(), "switchboard-bench-"));
try {
  await generate(root);
  const nodes = path.join(root, "nodes");
  const check = await lintNodes(nodes);
  const errors = check.problems.filter((problem) => problem.severity === "error");
  if (errors.length) throw new Error(`generated nodes should lint clean; first error: ${errors[0].rule} ${errors[0].message}`);
  console.log(`${count} node folders (${check.nodes.length} loaded)`);
  const baseline = await medianTime("baseline: read + parse YAML only", count, () => parseOnly(nodes));
  const full = await medianTime("load + \$ref + schemas + lint", count, () => lintNodes(nodes));
  console.log(`ratio to baseline: ${(full / baseline).toFixed(2)}x; per node: ${(full / count).toFixed(3)} ms (target < 2 ms)`);
} finally {
  await rm(root, { recursive: true, force: true });
}
