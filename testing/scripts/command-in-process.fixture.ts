import { format } from "node:util";

/** What a command printed and the exit code it answered. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command-line program as a function: its arguments in, its exit code out (scripts/*-command.ts). */
export type Command = (argv: string[]) => Promise<number>;

/**
 * Runs a command in this process, as its script runs it: `env` is set for the
 * call (undefined removes a variable) and put back after, and what it prints
 * on standard output and error is captured. A test calls a command this way
 * to spare a process start and a load of the app's code per call; each
 * command keeps one test that starts it as a real process (its *.test.ts
 * says which). Calls must not overlap: the capture is process-wide.
 */
export async function runCommandInProcess(command: Command, argv: string[], env: Record<string, string | undefined> = {}): Promise<CommandResult> {
  const streams = { stdout: "", stderr: "" };
  const saved = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
  };
  const savedEnv = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const printTo = (stream: "stdout" | "stderr") => (...args: unknown[]) => {
    streams[stream] += `${format(...args)}\n`;
  };
  const writeTo = (stream: "stdout" | "stderr") =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      streams[stream] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof process.stdout.write;
  setEnvironment(env);
  console.log = console.info = printTo("stdout");
  console.warn = console.error = printTo("stderr");
  process.stdout.write = writeTo("stdout");
  process.stderr.write = writeTo("stderr");
  try {
    const code = await command(argv);
    return { code, ...streams };
  } finally {
    console.log = saved.log;
    console.info = saved.info;
    console.warn = saved.warn;
    console.error = saved.error;
    process.stdout.write = saved.stdoutWrite;
    process.stderr.write = saved.stderrWrite;
    setEnvironment(savedEnv);
  }
}

function setEnvironment(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
