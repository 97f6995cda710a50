import { type ChildProcess, spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { type JSONRPCMessage, ReadBuffer, serializeMessage, type Transport } from "@modelcontextprotocol/client";
import { type CataloguedCommand, isCatalogued, type Launch, launchOf } from "./stdio-catalogue";

export interface ProcessGroupStdioOptions {
  /** What to start: only a command the stdio catalogue allowed (see cataloguedCommand). */
  command: CataloguedCommand;
  /** The harmless variables every server gets (PATH, HOME…; never the parent's whole environment: see connect-entry); the command's declared ones are added. */
  baseEnv: Record<string, string>;
  cwd?: string;
  /** How long the group gets after SIGTERM before SIGKILL, and how long stdin's end is waited for (default 2 s). */
  graceMs?: number;
}

/** Process groups started here and not yet ended: killed if this process exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * A stdio transport whose server runs in a process group of its own.
 * Closing it ends the whole group: stdin is closed (a well-behaved server
 * exits), then SIGTERM goes to the group, then SIGKILL after the grace
 * period. A server started through `npx`, `uv run` or a shell script runs
 * as a grandchild; ending only the direct child (what the SDK's own stdio
 * transport does) would orphan it.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly stderr = new PassThrough();
  #child: ChildProcess | undefined;
  #closing: Promise<void> | undefined;
  readonly #buffer = new ReadBuffer();

  readonly #launch: Launch;

  /** Throws ConfinementUnavailableError when the catalogue confines the command and bubblewrap is missing. */
  constructor(private readonly options: ProcessGroupStdioOptions) {
    if (!isCatalogued(options.command)) throw new TypeError("a stdio server starts only a command from the stdio catalogue");
    // The executable the catalogue resolved, or bubblewrap around it when the catalogue confines it.
    this.#launch = launchOf(options.command);
  }

  /** The process group's id (the first child's pid), once started. */
  get pgid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error("ProcessGroupStdioTransport already started");
    const launch = this.#launch;
    return new Promise((resolve, reject) => {
      const child: ChildProcess = spawn(launch.file, launch.args, {
        env: { ...this.options.baseEnv, ...this.options.command.env } as NodeJS.ProcessEnv,
        cwd: this.options.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        // Its own process group: the group id is the child's pid, and signals to -pid reach every process it starts.
        detached: true,
        windowsHide: true,
      });
      this.#child = child;
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        if (child.pid) track(child.pid);
        resolve();
      });
      child.once("close", () => {
        // The direct child is gone; anything it left in its group goes too.
        void this.close();
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        this.#buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.#buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closing) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the whole group (idempotent): stdin closed, SIGTERM, then SIGKILL after the grace period. */
  close(): Promise<void> {
    this.#closing ??= this.#end();
    return this.#closing;
  }

  async #end(): Promise<void> {
    const child = this.#child;
    const pgid = child?.pid;
    if (!child || !pgid) return;
    const grace = this.options.graceMs ?? 2_000;
    try {
      child.stdin?.end();
    } catch {
      // Already closed.
    }
    if (!(await groupGoneWithin(pgid, Math.min(grace, 500)))) {
      signalGroup(pgid, "SIGTERM");
      if (!(await groupGoneWithin(pgid, grace))) signalGroup(pgid, "SIGKILL");
    }
    liveGroups.delete(pgid);
    this.#buffer.clear();
  }
}

/** Whether any process of the group is still alive (signal 0 checks without sending). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Waits for the group to empty, looking every 25 ms, for at most `ms`. */
async function groupGoneWithin(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    // Not unref()ed: a CLI closing its last connection must not exit before the group is gone.
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

function track(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A detached group does not die with its parent: when this process exits, its servers go too.
  process.once("exit", () => {
    for (const group of liveGroups) signalGroup(group, "SIGKILL");
  });
}
