/**
 * Environment variables a stdio server's entry may not set, because they
 * change which program the allowlisted name starts or make it load other
 * code first. Compared in upper case (npm reads its `npm_config_*` in any
 * case). Returns why, naming the variable, or null.
 *
 * @example refusedEnvironmentName("NODE_OPTIONS") // "NODE_OPTIONS cannot be set: it makes node load code …"
 */
export function refusedEnvironmentName(name: string): string | null {
  const upper = name.toUpperCase();
  const exact = exactNames.get(upper);
  if (exact) return `${name} cannot be set: ${exact}`;
  for (const [pattern, reason] of prefixes) if (pattern.test(upper) && !harmless.has(upper)) return `${name} cannot be set: ${reason}`;
  return null;
}

const loadsCode = (what: string) => `it makes ${what} load or run other code than the program named`;

const exactNames = new Map([
  ["PATH", "the command allowlist means the program found on the app's PATH"],
  ["HOME", "it would point npm, uv and python at other configuration files (which can add options and package sources)"],
  ["XDG_CONFIG_HOME", "it would point uv and others at other configuration files"],
  ["NODE_OPTIONS", loadsCode("node (--require, --import)")],
  ["NODE_PATH", loadsCode("node (modules from elsewhere)")],
  ["NODE_REPL_EXTERNAL_MODULE", loadsCode("node")],
  ["BUN_OPTIONS", loadsCode("bun")],
  ["DENO_DIR", loadsCode("deno")],
  ["PERL5OPT", loadsCode("perl")],
  ["PERL5LIB", loadsCode("perl")],
  ["PERLLIB", loadsCode("perl")],
  ["RUBYOPT", loadsCode("ruby")],
  ["RUBYLIB", loadsCode("ruby")],
  ["BASH_ENV", loadsCode("a shell a script starts")],
  ["ENV", loadsCode("a shell a script starts")],
  ["SHELLOPTS", loadsCode("a shell a script starts")],
  ["BASHOPTS", loadsCode("a shell a script starts")],
  ["PS4", loadsCode("a traced shell")],
  ["PROMPT_COMMAND", loadsCode("a shell")],
  ["ZDOTDIR", loadsCode("zsh")],
  ["IFS", "it changes how a shell a script starts splits its commands"],
  ["GCONV_PATH", loadsCode("the C library (character-set modules)")],
]);

/** Families of variables, each refused whole apart from the few in `harmless`. */
const prefixes: Array<[RegExp, string]> = [
  [/^LD_/, loadsCode("the dynamic loader")],
  [/^DYLD_/, loadsCode("the dynamic loader")],
  [/^PYTHON/, loadsCode("python (PYTHONPATH, PYTHONSTARTUP, PYTHONHOME…)")],
  [/^UV_/, "it changes what uv installs and runs (its index, Python, tool directory…)"],
  [/^NPM_CONFIG_/, "it changes what npm and npx install and run (registry, node-options, script-shell, call…)"],
  [/^BASH_FUNC_/, "it defines shell functions that replace commands"],
];

/** Members of a refused family that change nothing about what runs. */
const harmless = new Set(["PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONDONTWRITEBYTECODE", "PYTHONUTF8", "UV_NO_PROGRESS", "UV_CACHE_DIR", "UV_OFFLINE", "NPM_CONFIG_LOGLEVEL", "NPM_CONFIG_OFFLINE", "NPM_CONFIG_PREFER_OFFLINE", "NPM_CONFIG_UPDATE_NOTIFIER", "NPM_CONFIG_FUND", "NPM_CONFIG_AUDIT"]);
