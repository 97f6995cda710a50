/**
 * TEST SUPPORT for the endpoint's multi-process tests: one web process
 * (endpoint-process.fixture.ts: the app's MCP route and the embedded
 * worker `npm start` runs) on its own port, with nothing shared with the
 * test or another process but the database; and a wait for a state.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { bundleProgram } from "../../scripts/cli-bundle.mjs";
import { createPrismaClient, type PrismaClient } from "../../lib/db/create-client";
import type { TestPostgres } from "../../lib/db/postgres/test-postgres";
import { createTemporaryDatabase } from "../db/temporary-database.fixture";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const root = path.resolve(import.meta.dirname, "..", "..");

/** The database processes of a test share: a fresh SQLite file, or the test Postgres; null when the Postgres suite is skipped. */
export async function openProcessesDatabase(dialect: "sqlite" | "postgres", postgres: TestPostgres | { skipped: string } | undefined): Promise<{ url: string; client: PrismaClient; close(): Promise<void> } | null> {
  if (dialect === "postgres") {
    if (!postgres || "skipped" in postgres) return null;
    const client = createPrismaClient(postgres.url);
    return { url: postgres.url, client, close: () => client.$disconnect() };
  }
  const sqlite = await createTemporaryDatabase();
  return { url: sqlite.url, client: sqlite.client, close: () => sqlite.dispose() };
}

export interface WebProcess {
  origin: string;
  child: ChildProcess;
  log: string[];
}

/** Starts one web process on 127.0.0.1:`port` against `databaseUrl`; resolves once it listens. */
export async function startWebProcess(port: number, databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<WebProcess> {
  // Each process runs a worker, as `npm start` does; a dead one's runs are taken over once its 2 s lease has expired.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    SWITCHBOARD_MCP_TOKEN: "",
    NODE_ENV: "production",
    SWITCHBOARD_EMBEDDED_WORKER: "true",
    SWITCHBOARD_LEASE_SECONDS: "2",
    SWITCHBOARD_HEARTBEAT_MS: "200",
    SWITCHBOARD_POLL_MS: "100",
    ...extraEnv,
  };
  delete env.VITEST;
  const bundle = await webProcessBundle();
  const program = bundle ? [bundle] : ["--import", "tsx", "testing/mcp/endpoint-process.fixture.ts"];
  const child = spawn(process.execPath, ["--conditions=react-server", ...program], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web process on ${port} did not start: ${log.join("")}`)), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      log.push(chunk.toString());
      if (chunk.toString().includes(`listening ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`web process on ${port} exited ${code}: ${log.join("")}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, child, log };
}

let bundled: Promise<string | null> | undefined;
const bundleFolder = path.join(root, "node_modules", ".cache", "switchboard-web-process");

/**
 * The web process's program bundled as the commands are (scripts/cli-bundle.mjs),
 * once per test process, under node_modules/.cache (its packages are found
 * from there): from the bundle a process listens after about half the CPU
 * time it takes through tsx. Each bundle is named by the test process that
 * made it; those of processes gone are removed. Null when it cannot be
 * bundled; the process then starts through tsx.
 */
function webProcessBundle(): Promise<string | null> {
  bundled ??= (async () => {
    try {
      await mkdir(bundleFolder, { recursive: true });
      for (const name of await readdir(bundleFolder)) {
        const owner = Number(/^endpoint-process-(\d+)\.mjs$/.exec(name)?.[1]);
        if (owner && !processAlive(owner)) await rm(path.join(bundleFolder, name), { force: true });
      }
      const file = path.join(bundleFolder, `endpoint-process-${process.pid}.mjs`);
      await bundleProgram("testing/mcp/endpoint-process.fixture.ts", file, { conditions: ["react-server"] });
      return file;
    } catch {
      return null;
    }
  })();
  return bundled;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** SIGTERM, then SIGKILL after 5 s; nothing when it has already exited. */
export async function stopWebProcess(web: WebProcess | undefined): Promise<void> {
  if (!web || web.child.exitCode !== null || web.child.signalCode !== null) return;
  const exited = new Promise((resolve) => web.child.once("exit", resolve));
  web.child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  if (web.child.exitCode === null && web.child.signalCode === null) web.child.kill("SIGKILL");
}

/** Reads until `read` gives a value, every 50 ms, failing after `timeoutMs` with what it waited for. */
export async function until<T>(read: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A 2025-era host behind a load balancer: every request goes to the web
 * process `route.to` names at that moment (set it between requests).
 */
export function balancedHost(options: { name: string; first: WebProcess; workflowId: string; token: string }) {
  const route = { to: options.first };
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    return globalThis.fetch(new URL(url.pathname, route.to.origin), init);
  };
  const mcp = new Client({ name: options.name, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${options.first.origin}/api/mcp/${options.workflowId}`), { fetch, requestInit: { headers: { Authorization: `Bearer ${options.token}` } } });
  return { mcp, transport, route };
}
