/**
 * `npm start`: prepares the database, builds when the build is missing or
 * older than the sources, then serves the app on 127.0.0.1:${PORT:-3000}.
 *
 *   npm start
 *   PORT=4000 npm start
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsStale } from "./build-state";
import { prepareAppOrExit } from "./prepare-app";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

const nextBin = path.join(path.dirname(createRequire(import.meta.url).resolve("next/package.json")), "dist", "bin", "next");
const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function runNext(args: string[]): ChildProcess {
  current = spawn(process.execPath, [nextBin, ...args], { cwd: root, env: childEnv, stdio: "inherit" });
  return current;
}

function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(`start: could not run next (${error.message}); run \`npm install\` first.`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1)));
  });
}

/** The child running now; Ctrl-C and a service manager's stop are passed on to it. */
let current: ChildProcess | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (current && current.exitCode === null) current.kill(signal);
    else process.exit(128 + (signal === "SIGINT" ? 2 : 15));
  });
}

async function main(): Promise<void> {
  await prepareAppOrExit();

  const { stale, reason } = buildIsStale(root);
  if (stale) {
    console.log(`start: building the app (${reason})...`);
    const build = runNext(["build"]);
    const code = await exitCode(build);
    if (code !== 0) {
      console.error(`start: next build failed (exit ${code}); see its output above.`);
      process.exit(code);
    }
  } else {
    console.log("start: build is up to date");
  }

  const port = process.env.PORT ?? "3000";
  console.log(`start: serving on http://127.0.0.1:${port}`);
  const server = runNext(["start", "-H", "127.0.0.1", "-p", port]);
  process.exit(await exitCode(server));
}

await main();
