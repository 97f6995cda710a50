/**
 * Runs one command-line program from its bundle (.cli/, see
 * scripts/cli-bundle.mjs): `node scripts/cli.mjs workflow -- ARGS` is
 * `tsx scripts/workflow.ts ARGS` without transpiling on every call. A
 * bundle that is missing, built in another folder or older than any of its
 * source files is built again first; when that cannot be done, the
 * program runs through tsx as before. SWITCHBOARD_CLI=tsx always runs it
 * through tsx; SWITCHBOARD_CLI_DIR puts the bundles elsewhere than .cli/.
 *
 * Plain JavaScript on purpose: it must start in the time of `node -e 0`.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cliFolder = process.env.SWITCHBOARD_CLI_DIR ? path.resolve(process.env.SWITCHBOARD_CLI_DIR) : path.join(root, ".cli");
const [name, ...args] = process.argv.slice(2);

/** The bundle's entry when it is current, else null. */
function currentBundle(manifest) {
  if (!manifest || manifest.root !== root || manifest.node !== process.versions.node || !manifest.programs?.[name]) return null;
  const base = root + path.sep; // inputs are relative to the root, as esbuild lists them
  for (const input of manifest.inputs) {
    let changed;
    try {
      changed = statSync(base + input).mtimeMs;
    } catch {
      return null; // a source file was removed or renamed
    }
    if (changed > manifest.builtAt) return null;
  }
  return { bundle: path.join(cliFolder, manifest.folder, manifest.programs[name].bundle), source: manifest.programs[name].source, build: manifest.folder };
}

function readManifest() {
  try {
    return JSON.parse(readFileSync(path.join(cliFolder, "manifest.json"), "utf8"));
  } catch {
    return null;
  }
}

async function main() {
  const viaTsx = process.env.SWITCHBOARD_CLI === "tsx";
  let entry = viaTsx ? null : currentBundle(readManifest());
  let source = entry?.source;
  if (!entry) {
    const { buildCli, programs } = await import("./cli-bundle.mjs");
    source = programs[name];
    if (!source) {
      console.error(`cli: no command '${name}' (one of: ${Object.keys(programs).join(", ")})`);
      process.exit(2);
    }
    try {
      if (!viaTsx) entry = currentBundle(await buildCli());
    } catch (error) {
      if (process.env.SWITCHBOARD_DEBUG) console.error(`cli: could not bundle the commands (${String(error?.message ?? error).split("\n")[0]}); running through tsx`);
    }
  }
  // The program sees the arguments it would see under tsx: argv[1] is its source file.
  process.argv = [process.argv[0], path.join(root, source), ...args];
  if (entry) {
    // Which build runs: what a program may key a cache of its own results on (lint:nodes does).
    process.env.SWITCHBOARD_CLI_BUILD = entry.build;
    await import(pathToFileURL(entry.bundle).href);
    return;
  }
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(root, source)).href);
}

await main();
