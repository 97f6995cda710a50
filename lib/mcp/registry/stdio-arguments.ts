/**
 * What a stdio server's arguments may say. The command allowlist names
 * interpreters and package runners, so without these rules `node -e …`,
 * `python3 -c …` or `npx … node -e …` would run code typed into the form
 * rather than a program. Refused, with the flag named:
 * - code given inline or loaded ahead of the program (`-e`, `--eval`, `-p`,
 *   `--print`, `-r`, `--require`, `--import`, `--loader`, python `-c`, `-m`,
 *   their `=` forms and short clusters such as `-pe`);
 * - program text read from stdin (`-`), which is the MCP channel;
 * - anything but a package spec first after `npx` / `uvx` (and the
 *   `pnpm dlx`, `npm exec`, `bunx` forms they can reach), then the same
 *   rules for what that package is, when it is an interpreter;
 * - shells and package managers behind a runner (they run any command).
 * An interpreter's options end at `--`: an argument after it belongs to the
 * script (`node -- server.js -p 8080`).
 */

export interface ArgumentProblem {
  /** The index in `args` of the argument at fault. */
  index: number;
  message: string;
}

type Vocabulary = "node" | "bun" | "deno" | "python" | "ruby" | "perl";

interface InterpreterRules {
  /** Long options (before any `=`) that run inline code or load code ahead of the program. */
  long: ReadonlyMap<string, string>;
  /** Short option letters that do, also inside a cluster (`-pe`). */
  short: ReadonlyMap<string, string>;
}

const codeInline = "runs code given inline instead of a program";
const codeLoaded = "loads code ahead of the program";

const nodeLong = new Map([
  ["--eval", codeInline],
  ["--print", codeInline],
  ["--require", codeLoaded],
  ["--import", codeLoaded],
  ["--loader", codeLoaded],
  ["--experimental-loader", codeLoaded],
  ["--interactive", "reads code from its input"],
  ["--env-file", "reads variables such as NODE_OPTIONS from a file"],
  ["--env-file-if-exists", "reads variables such as NODE_OPTIONS from a file"],
  ["--experimental-config-file", "reads options from a file"],
  ["--experimental-default-config-file", "reads options from a file"],
  ["--run", "runs a package.json script (a shell command)"],
  ["--openssl-config", "loads native code (an OpenSSL engine)"],
  ["--inspect", "opens a debugger port that runs any code"],
  ["--inspect-brk", "opens a debugger port that runs any code"],
  ["--inspect-wait", "opens a debugger port that runs any code"],
]);
const nodeShort = new Map([
  ["e", codeInline],
  ["p", codeInline],
  ["r", codeLoaded],
  ["i", "reads code from its input"],
]);

const rules: Record<Vocabulary, InterpreterRules> = {
  node: { long: nodeLong, short: nodeShort },
  bun: { long: new Map([...nodeLong, ["--preload", codeLoaded]]), short: nodeShort },
  // Deno's inline forms are subcommands (`deno eval`, `deno repl`), checked apart; these are its loaders.
  deno: { long: new Map([["--import-map", codeLoaded], ["--preload", codeLoaded], ["--env-file", "reads variables from a file"], ["--inspect", "opens a debugger port that runs any code"]]), short: new Map() },
  python: {
    long: new Map(),
    short: new Map([
      ["c", codeInline],
      ["m", "runs a module by name instead of a program file"],
      ["i", "reads code from its input"],
    ]),
  },
  ruby: { long: new Map([["--require", codeLoaded]]), short: new Map([["e", codeInline], ["r", codeLoaded]]) },
  perl: { long: new Map(), short: new Map([["e", codeInline], ["E", codeInline], ["M", codeLoaded], ["m", codeLoaded]]) },
};

/** Program names (as a runner's package or a bin) and the vocabulary their options follow. */
const interpreters: Record<string, Vocabulary> = {
  node: "node",
  nodejs: "node",
  tsx: "node",
  "ts-node": "node",
  bun: "bun",
  deno: "deno",
  python: "python",
  python3: "python",
  ruby: "ruby",
  perl: "perl",
};

/** Programs that run whatever command they are given: never a stdio server. */
const shells = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "cmd", "powershell", "pwsh", "env", "sudo", "xargs", "busybox"]);

/** Runner options that do not change what runs; anything else before the package spec is refused. */
const harmlessRunnerOptions = new Set(["-y", "--yes", "-q", "--quiet"]);

/** How many runners may wrap one another (`npx pnpm dlx …`) before the entry is refused as too clever. */
const maxNesting = 3;

/**
 * The first argument that would make the command run something other than
 * a program, or null.
 *
 * @example stdioArgumentProblem("node", ["--eval=process.exit()"]) // { index: 0, message: "node --eval runs code …" }
 */
export function stdioArgumentProblem(command: string, args: readonly string[]): ArgumentProblem | null {
  return programProblem(command, args, 0, 0);
}

function programProblem(program: string, args: readonly string[], offset: number, depth: number): ArgumentProblem | null {
  const runner = runnerAt(program, args);
  if (runner) {
    if (depth >= maxNesting) return { index: offset, message: `${program} wraps other package runners ${maxNesting} deep; start the server's package directly` };
    return runnerProblem(runner.label, args.slice(runner.skip), offset + runner.skip, depth + 1);
  }
  const name = binName(program);
  if (shells.has(name)) return { index: Math.max(0, offset - 1), message: `${program} runs any command it is given, so it cannot start a stdio server; name the server's own package` };
  if (packageManagers.has(name)) return { index: Math.max(0, offset - 1), message: `${program} ${args[0] ?? ""}`.trim() + " runs scripts or installs packages, not a server; use npx with the server's package" };
  const vocabulary = interpreters[name];
  return vocabulary ? interpreterProblem(program, vocabulary, args, offset) : null;
}

const packageManagers = new Set(["npm", "pnpm", "yarn", "corepack", "pip", "pip3", "pipx", "uv"]);

/** `npx`, `uvx`, `bunx`, and the two-word forms `pnpm dlx`, `yarn dlx`, `npm exec`, `npm x`, `pipx run`, `uv tool run`. */
function runnerAt(program: string, args: readonly string[]): { label: string; skip: number } | null {
  const name = binName(program);
  if (name === "npx" || name === "uvx" || name === "bunx") return { label: program, skip: 0 };
  const sub = args[0];
  if ((name === "pnpm" || name === "yarn") && sub === "dlx") return { label: `${program} dlx`, skip: 1 };
  if (name === "npm" && (sub === "exec" || sub === "x")) return { label: `${program} ${sub}`, skip: 1 };
  if (name === "pipx" && sub === "run") return { label: `${program} run`, skip: 1 };
  if (name === "uv" && sub === "tool" && args[1] === "run") return { label: `${program} tool run`, skip: 2 };
  return null;
}

/** A runner takes a package spec first (after `-y` and the like); the package's own arguments follow it. */
function runnerProblem(label: string, args: readonly string[], offset: number, depth: number): ArgumentProblem | null {
  let index = 0;
  while (index < args.length && harmlessRunnerOptions.has(args[index])) index++;
  const spec = args[index];
  if (spec === undefined) return { index: offset + index, message: `${label} needs a package spec (e.g. @modelcontextprotocol/server-everything) as its first argument` };
  if (spec.startsWith("-")) {
    return { index: offset + index, message: `${label} ${optionName(spec)} is refused: ${label} takes a package spec first, so no option can choose or replace what runs (-c / --call run a shell command, -p / --package add packages)` };
  }
  // After the spec the arguments are the package's; a `--` there is passed on to it.
  const rest = args.slice(index + 1);
  const skip = rest[0] === "--" ? 1 : 0;
  return programProblem(packageName(spec), rest.slice(skip), offset + index + 1 + skip, depth);
}

function interpreterProblem(program: string, vocabulary: Vocabulary, args: readonly string[], offset: number): ArgumentProblem | null {
  const { long, short } = rules[vocabulary];
  let programSeen = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") return programSeen || index + 1 < args.length ? null : noProgram(program, offset + index + 1);
    const at = offset + index;
    if (arg === "-") return { index: at, message: `${program} - reads its program from standard input (the MCP channel); name a program file` };
    if (vocabulary === "deno" && index === 0 && (arg === "eval" || arg === "repl")) return { index: at, message: `deno ${arg} ${codeInline}` };
    if (arg.startsWith("--")) {
      const name = arg.split("=")[0];
      const reason = long.get(name) ?? (vocabulary === "node" && /^--(inspect|debug)/.test(name) ? "opens a debugger port that runs any code" : undefined);
      if (reason) return { index: at, message: refusal(program, name, reason) };
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      const letters = arg.slice(1).split("=")[0];
      for (const letter of letters) {
        const reason = short.get(letter);
        if (reason) return { index: at, message: refusal(program, `-${letter}${letters.length > 1 ? ` (in ${arg.split("=")[0]})` : ""}`, reason) };
      }
      continue;
    }
    // The program file: a package runner's own script under an interpreter is a runner in disguise.
    if (!programSeen) {
      programSeen = true;
      const script = binName(arg).replace(/(-cli)?\.(c|m)?js$/, "");
      if (runnerNames.has(script)) return { index: at, message: `${program} ${arg} runs a package runner under ${program}; use npx with the server's package instead` };
    }
  }
  return programSeen ? null : noProgram(program, offset + args.length);
}

/** An interpreter given no program reads one from its input, which is the MCP channel. */
function noProgram(program: string, index: number): ArgumentProblem {
  return { index, message: `${program} needs a program file to run (without one it reads code from its input)` };
}

const runnerNames = new Set(["npx", "npm", "pnpm", "yarn", "bunx", "corepack", "uvx", "pipx"]);

function refusal(program: string, flag: string, reason: string): string {
  return `${program} ${flag} is refused: it ${reason}. A stdio server starts a program file or package; if ${flag.split(" ")[0]} is that program's own option, put -- before the program (${program} -- server.js ${flag.split(" ")[0]} …)`;
}

/** The option as written, without an `=value` (which may be long or hold code). */
function optionName(arg: string): string {
  return arg.split("=")[0].slice(0, 60);
}

/** `/usr/bin/node` → `node`; `python3.12` → `python3`. */
function binName(program: string): string {
  const base = program.split(/[\\/]/).pop() ?? program;
  return base.replace(/^(python3?)\.\d+$/, "$1");
}

/** `@scope/pkg@1.2.3` → `pkg`; `node@20` → `node`; `tsx` → `tsx`. What the runner will start, by name. */
function packageName(spec: string): string {
  spec = spec.replace(/^npm:/, "");
  const withoutScope = spec.startsWith("@") ? (spec.split("/")[1] ?? spec) : spec;
  const name = withoutScope.split("@")[0].split(/[=<>~!]/)[0];
  return binName(name);
}
