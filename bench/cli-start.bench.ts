/**
 * How long a command takes to start, in wall time and CPU time, against
 * `node -e 0` measured in the same run (the floor: Node itself):
 * - `workflow --help` from its bundle (node scripts/cli.mjs, what `npm run
 *   workflow` runs), through `npm run`, and transpiled by tsx as before
 *   (target: bundle under 0.5 s and under 3x `node -e 0`);
 * - `lint:nodes` on the shipped catalogue: answered from its cache (nothing
 *   changed), linted again (--no-cache), and transpiled by tsx (target:
 *   under 0.5 s).
 * Medians of 7 runs after one warm-up, with the load before and after.
 *
 *   npx tsx bench/cli-start.bench.ts
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const root = path.resolve(import.meta.dirname, "..");
const rounds = Number(process.env.ROUNDS ?? 7);

interface Timing {
  wall: number;
  /** User + system CPU of the command and its children (Linux: /proc/self/stat's cutime + cstime, 10 ms ticks); NaN elsewhere. */
  cpu: number;
}

function childrenCpu(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

function once(file: string, args: string[]): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const cpu = childrenCpu();
    const began = performance.now();
    execFile(file, args, { cwd: root, env: { ...process.env, npm_config_update_notifier: "false" } }, (error) => {
      const wall = performance.now() - began;
      if (error && typeof error.code !== "number") return reject(error);
      resolve({ wall, cpu: childrenCpu() - cpu });
    });
  });
}

/** Medians after one warm-up run. */
async function median(label: string, file: string, args: string[]): Promise<Timing> {
  await once(file, args);
  const runs: Timing[] = [];
  for (let round = 0; round < rounds; round++) runs.push(await once(file, args));
  const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const timing = { wall: middle(runs.map((run) => run.wall)), cpu: middle(runs.map((run) => run.cpu)) };
  console.log(`${label.padEnd(46)} ${timing.wall.toFixed(0).padStart(6)} ms wall ${timing.cpu.toFixed(0).padStart(6)} ms CPU`);
  return timing;
}

const node = process.execPath;
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const launcher = path.join(root, "scripts", "cli.mjs");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const loadBefore = os.loadavg()[0];
console.log(`commands starting, medians of ${rounds} (${os.cpus().length} cores, load ${loadBefore.toFixed(1)})`);
const floor = await median("node -e 0", node, ["-e", "0"]);
const help = await median("node scripts/cli.mjs workflow --help", node, [launcher, "workflow", "--help"]);
const npmHelp = await median("npm run -s workflow -- --help", npm, ["run", "-s", "workflow", "--", "--help"]);
const npmNothing = await median("npm run -s (a script that does nothing)", npm, ["run", "-s", "env", "--", "true"]);
const tsxHelp = await median("tsx scripts/workflow.ts --help (before)", node, [tsx, "scripts/workflow.ts", "--help"]);
const lintCached = await median("node scripts/cli.mjs lint-nodes (unchanged)", node, [launcher, "lint-nodes"]);
const lintCold = await median("node scripts/cli.mjs lint-nodes --no-cache", node, [launcher, "lint-nodes", "--no-cache"]);
const lintTsx = await median("tsx scripts/lint-nodes.ts (before)", node, [tsx, "scripts/lint-nodes.ts"]);
const loadAfter = os.loadavg()[0];
const x = (value: number) => `${value.toFixed(2)}x`;
console.log(`workflow --help: bundle ${help.wall.toFixed(0)} ms = ${x(help.wall / floor.wall)} node -e 0 (CPU ${x(help.cpu / floor.cpu)}) (target < 500 ms, < 3x); npm run ${npmHelp.wall.toFixed(0)} ms (npm alone ${npmNothing.wall.toFixed(0)} ms); tsx ${tsxHelp.wall.toFixed(0)} ms = ${x(tsxHelp.wall / help.wall)} the bundle`);
console.log(`lint:nodes: unchanged ${lintCached.wall.toFixed(0)} ms = ${x(lintCached.wall / floor.wall)} node -e 0 (CPU ${x(lintCached.cpu / floor.cpu)}) (target < 500 ms); linted again ${lintCold.wall.toFixed(0)} ms; tsx ${lintTsx.wall.toFixed(0)} ms = ${x(lintTsx.wall / lintCold.wall)} the bundle's full lint`);
console.log(`load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`);
