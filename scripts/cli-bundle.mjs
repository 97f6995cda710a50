/**
 * The command-line programs bundled once, so a command starts without
 * transpiling TypeScript: esbuild turns each CLI of scripts/ into an ES
 * module under .cli/ (gitignored), split so a subcommand's imports load only
 * when it runs. Built by `npm install` (postinstall) and `npm run build`;
 * scripts/cli.mjs builds again when a source file is newer than the bundle,
 * and falls back to tsx when esbuild is missing or fails.
 *
 *   node scripts/cli-bundle.mjs [--if-possible]
 *
 * Plain JavaScript on purpose: it runs before anything can be transpiled.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Where the bundles live: .cli/ (gitignored), or SWITCHBOARD_CLI_DIR. */
export const cliFolder = process.env.SWITCHBOARD_CLI_DIR ? path.resolve(process.env.SWITCHBOARD_CLI_DIR) : path.join(root, ".cli");
export const manifestFile = path.join(cliFolder, "manifest.json");

/** The bundled programs: `node scripts/cli.mjs NAME` runs scripts/<file>. */
export const programs = {
  workflow: "scripts/workflow.ts",
  servers: "scripts/servers.ts",
  worker: "scripts/worker.ts",
  nodes: "scripts/nodes.ts",
  "lint-nodes": "scripts/lint-nodes.ts",
  migrate: "scripts/migrate.ts",
  // `npm start`: prepares the database (as migrate), builds when stale, then runs next start.
  start: "scripts/start.ts",
  // The MCP conformance suite's client: started once per client scenario (npm run test:conformance).
  "mcp-conformance-client": "scripts/mcp-conformance-client.ts",
};

/**
 * Packages bundled with the commands (with what they import): pure
 * JavaScript that every lint and run loads, in many small files that cost
 * more to find and load one by one than to parse as one. Every other
 * package is loaded from node_modules at run time, as under tsx: native and
 * wasm code, files read beside their own modules, CommonJS whose interop a
 * bundle would change.
 */
const bundledPackages = new Set(["zod", "ajv", "ajv-formats", "yaml", "js-yaml", "acorn"]);

const packagesOutside = {
  name: "packages-outside",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      if (args.path.startsWith("@/")) return undefined; // the project's own alias (tsconfig paths)
      const name = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
      return bundledPackages.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

/** CommonJS code bundled into an ES module still calls require() for Node's own modules. */
const banner = `import { createRequire as __cliCreateRequire } from "node:module"; const require = __cliCreateRequire(import.meta.url);`;

/** Builds kept besides the current one (a running worker may still load a chunk of the one it started from). */
const keptBuilds = 3;

/**
 * import.meta.url, .dirname and .filename as each source file sees them
 * under tsx: files find their neighbours (migrations, catalogues, fixtures)
 * relative to their own source path, wherever the bundle lives.
 */
const sourceLocations = {
  name: "source-locations",
  setup(build) {
    build.onLoad({ filter: /\.(ts|tsx|mts)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      let contents = await readFile(args.path, "utf8");
      if (contents.includes("import.meta.")) {
        contents = contents
          .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
          .replaceAll("import.meta.filename", JSON.stringify(args.path))
          .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href));
      }
      return { contents, loader: args.path.endsWith("x") ? "tsx" : "ts" };
    });
  },
};

/** How every bundle of the project's programs is built: its own sources and bundledPackages in, every other package loaded from node_modules. */
const bundleOptions = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  banner: { js: banner },
  logLevel: "silent",
  plugins: [packagesOutside, sourceLocations],
};

/** Bundles every program into a fresh folder under .cli/, then points the manifest at it. Returns the manifest. */
export async function buildCli() {
  const { build } = await import("esbuild");
  const startedAt = Date.now();
  const id = `build-${startedAt}-${process.pid}`;
  const outdir = path.join(cliFolder, id);
  await mkdir(outdir, { recursive: true });
  const result = await build({
    ...bundleOptions,
    entryPoints: Object.fromEntries(Object.entries(programs).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    splitting: true,
    metafile: true,
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
  });
  // The sources the bundle was built from: any of them newer than the build makes it stale.
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes("node_modules/"));
  // A package installed or updated (npm install) makes it stale too: its lock file is an input.
  inputs.push("package-lock.json");
  const manifest = { root, node: process.versions.node, builtAt: startedAt, folder: id, programs: Object.fromEntries(Object.entries(programs).map(([name, source]) => [name, { bundle: `${name}.mjs`, source }])), inputs };
  const temporary = `${manifestFile}.${process.pid}`;
  await writeFile(temporary, JSON.stringify(manifest));
  await rename(temporary, manifestFile);
  await pruneBuilds(id);
  return manifest;
}

/**
 * Bundles one more program (`entry`, relative to the root) into `outfile`,
 * as the commands are bundled. `outfile` must lie inside the repository, so
 * the packages left out are found in its node_modules. Test support starts
 * its own processes from such a bundle (testing/mcp/endpoint-web-process.fixture.ts).
 */
export async function bundleProgram(entry, outfile, options = {}) {
  const { build } = await import("esbuild");
  await build({ ...bundleOptions, entryPoints: [path.join(root, entry)], outfile, conditions: options.conditions ?? [] });
}

async function pruneBuilds(current) {
  const builds = (await readdir(cliFolder)).filter((name) => name.startsWith("build-") && name !== current);
  const dated = await Promise.all(builds.map(async (name) => ({ name, at: (await stat(path.join(cliFolder, name)).catch(() => null))?.mtimeMs ?? 0 })));
  dated.sort((a, b) => b.at - a.at);
  for (const old of dated.slice(keptBuilds)) await rm(path.join(cliFolder, old.name), { recursive: true, force: true }).catch(() => undefined);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifPossible = process.argv.includes("--if-possible");
  const began = performance.now();
  buildCli().then(
    (manifest) => console.log(`cli: ${Object.keys(manifest.programs).length} commands bundled into .cli/${manifest.folder} in ${Math.round(performance.now() - began)} ms`),
    (error) => {
      console.error(`cli: could not bundle the commands (${String(error?.message ?? error).split("\n")[0]}); they run through tsx instead`);
      process.exit(ifPossible ? 0 : 1);
    },
  );
}
