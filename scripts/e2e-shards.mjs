#!/usr/bin/env node
/**
 * The browser tests of `npm run test:e2e`, split into shards that run at the
 * same time. Each shard is a `playwright test` process, given its share of the
 * spec files (dealt out by their time: scripts/e2e-split.mjs; with a filter
 * among the arguments, `--shard=I/N` instead), with an app
 * server of its own on a port of its own (E2E_PORT, E2E_PORT+1, …), hence its
 * own database, cases folder and owner session (e2e/support/e2e-server.ts):
 * the shards share no state. Every line a shard prints is prefixed with
 * `[e2e I/N]`. Exit 0 only when every shard passed; arguments are passed to
 * every shard.
 *
 *   node scripts/e2e-shards.mjs [playwright test arguments…]        # two at once (one on a 1-core machine), on E2E_PORT and E2E_PORT+1
 *   SWITCHBOARD_E2E_SHARDS=1 node scripts/e2e-shards.mjs             # one process, as `npx playwright test`
 *
 * At most 8 shards. Beside its app's port a shard uses its port + 1000, + 1500, + 1501 and + 2000 for
 * its fixtures (playwright.config.ts, e2e/chat-embed.spec.ts), clear of the other shards' ports.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { fileFilter, readDurations, specFiles, splitByDuration } from "./e2e-split.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Two by default where there are two cores: each shard waits on its app and its browser in turn.
const shards = Number(process.env.SWITCHBOARD_E2E_SHARDS ?? Math.min(2, availableParallelism()));
if (!Number.isInteger(shards) || shards < 1 || shards > 8) {
  console.error(`e2e: SWITCHBOARD_E2E_SHARDS must be a whole number from 1 to 8 (got ${JSON.stringify(process.env.SWITCHBOARD_E2E_SHARDS)}).`);
  process.exit(2);
}
const basePort = Number(process.env.E2E_PORT ?? 3217);
if (!Number.isInteger(basePort) || basePort < 1024 || basePort > 64_000) {
  console.error(`e2e: E2E_PORT must be a port number from 1024 to 64000 (got ${JSON.stringify(process.env.E2E_PORT)}).`);
  process.exit(2);
}
const playwright = path.join(path.dirname(createRequire(import.meta.url).resolve("@playwright/test/package.json")), "cli.js");
const args = process.argv.slice(2);
// Unless told which tests to run (a file filter, a grep, a shard), the files are dealt out by their time
// (scripts/e2e-split.mjs, e2e/durations.json) rather than by count: the shards end together.
const filtered = args.some((arg) => !arg.startsWith("-") || /^--(shard|grep|grep-invert|last-failed|only-changed)\b/.test(arg));
const dealt = shards > 1 && !filtered ? splitByDuration(specFiles(root), readDurations(root), shards) : null;

/** Starts shard `index` (1-based) and answers its exit code once it has ended. */
function runShard(index) {
  const label = `[e2e ${index}/${shards}]`;
  // A shard dealt no file has nothing to run (with no filter, Playwright would run every test).
  if (dealt && dealt[index - 1].length === 0) return Promise.resolve(0);
  const shardArgs = shards === 1 ? args : dealt ? [...args, ...dealt[index - 1].map(fileFilter)] : [...args, `--shard=${index}/${shards}`];
  const child = spawn(process.execPath, [playwright, "test", ...shardArgs], {
    cwd: root,
    // node_modules/.bin on the PATH, as under npm run: the webServer command runs next.
    env: { ...process.env, E2E_PORT: String(basePort + index - 1), PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => console.log(shards === 1 ? line : `${label} ${line}`));
  }
  return new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(`${label} could not start Playwright: ${error.message}`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const children = [];
// Ctrl-C or a CI timeout stops every shard (and, through Playwright, its app server).
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

const started = Date.now();
const codes = await Promise.all(Array.from({ length: shards }, (_, index) => runShard(index + 1)));
const failed = codes.flatMap((code, index) => (code === 0 ? [] : [`${index + 1}/${shards} (exit ${code})`]));
const seconds = Math.round((Date.now() - started) / 1000);
if (failed.length > 0) {
  console.error(`e2e: shard ${failed.join(", ")} failed, after ${seconds} s.`);
  process.exit(1);
}
console.log(`e2e: ${shards} shard${shards === 1 ? "" : "s"} passed in ${seconds} s.`);
