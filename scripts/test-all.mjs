#!/usr/bin/env node
/**
 * `npm test`: every check and test in the repository. Two lanes run at once,
 * then the browser tests run on the build the first lane made:
 *
 *   checks  lint:imports, typecheck, lint:nodes, test:cases, test:conformance,
 *           then the browser (scripts/ensure-chromium.sh), `next build` (its
 *           own type check skipped: typecheck has checked the same files) and
 *           the embedded kill drill on that build (test:drill)
 *   unit    test:unit
 *   then    the browser tests: test:e2e's shards (scripts/e2e-shards.mjs)
 *
 * The unit suite spends much of its time waiting on processes, servers,
 * databases and clocks; the checks use what CPU it leaves. On a 1-core machine
 * the lanes run one after the other. The first stage that fails stops the
 * others and fails the run, naming the stage. Each line of a lane is prefixed
 * with its name; at the end, each stage's time.
 *
 *   node scripts/test-all.mjs
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npmRun = (script) => ["npm", ["run", "-s", script]];

const lanes = [
  {
    name: "checks",
    stages: [
      { name: "lint:imports", command: npmRun("lint:imports") },
      { name: "typecheck", command: npmRun("typecheck") },
      { name: "lint:nodes", command: npmRun("lint:nodes") },
      { name: "test:cases", command: npmRun("test:cases") },
      { name: "test:conformance", command: npmRun("test:conformance") },
      { name: "browser", command: ["bash", ["scripts/ensure-chromium.sh"]] },
      { name: "next build", command: ["next", ["build"]], env: { SWITCHBOARD_TYPECHECKED: "true" } },
      { name: "test:drill", command: npmRun("test:drill") },
    ],
  },
  { name: "unit", stages: [{ name: "test:unit", command: npmRun("test:unit") }] },
];
const browserTests = { name: "browser tests", command: [process.execPath, ["scripts/e2e-shards.mjs"]] };

const env = {
  ...process.env,
  // node_modules/.bin on the PATH, as under npm run.
  PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
  // Colours survive the pipe when the run itself is on a terminal.
  ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {}),
};
const running = new Set();
const times = [];
let stopping = false;

/** Runs one stage; answers whether it passed. Its lines are prefixed with `label` when given. */
function runStage(stage, label) {
  const [program, args] = stage.command;
  const started = Date.now();
  // Its own process group, so a stop reaches what it started (vitest's workers, Playwright's servers).
  const child = spawn(program, args, { cwd: root, env: { ...env, ...stage.env }, stdio: ["ignore", label ? "pipe" : "inherit", label ? "pipe" : "inherit"], detached: true });
  running.add(child);
  if (label) {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => console.log(`[${label}] ${line}`));
    }
  }
  return new Promise((resolve) => {
    // A program that cannot start is reported here; "close" follows (code -2), which fails the stage.
    child.on("error", (error) => console.error(`test: ${stage.name} could not start: ${error.message}`));
    child.on("close", (code, signal) => {
      running.delete(child);
      const seconds = Math.round((Date.now() - started) / 1000);
      times.push(`${stage.name} ${seconds} s`);
      const passed = code === 0 && !signal;
      if (!passed && !stopping) console.error(`test: ${stage.name} failed (${signal ?? `exit ${code}`}) after ${seconds} s.`);
      resolve(passed);
    });
  });
}

/** Stops every stage still running (its whole process group). */
function stopAll(signal = "SIGTERM") {
  stopping = true;
  for (const child of running) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopAll(signal);
    process.exitCode = 1;
  });
}

/** Runs a lane's stages one after another; answers whether all passed. A failure stops the other lanes. */
async function runLane(lane, label) {
  for (const stage of lane.stages) {
    if (stopping) return false;
    if (!(await runStage(stage, label ? lane.name : undefined))) {
      stopAll();
      return false;
    }
  }
  return true;
}

const started = Date.now();
const together = availableParallelism() > 1;
let passed;
if (together) {
  passed = (await Promise.all(lanes.map((lane) => runLane(lane, true)))).every(Boolean);
} else {
  passed = true;
  for (const lane of lanes) passed = passed && (await runLane(lane, false));
}
if (passed && !stopping) passed = await runStage(browserTests);
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`test: ${times.join(", ")}.`);
if (!passed || stopping) {
  console.error(`test: failed after ${seconds} s.`);
  process.exit(1);
}
console.log(`test: everything passed in ${seconds} s.`);
