/** The `npm run servers` command (scripts/servers.ts), as a function a test can call in its own process. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { PrismaServerRegistry } from "../lib/db";
import type { ServerEntry, ServerListing } from "../lib/mcp";

/** What the commands use, imported once the arguments are understood (a usage error loads nothing of the app). */
async function loadLibrary() {
  const [database, connect, registry, catalogue, secrets] = await Promise.all([
    import("../lib/db"),
    import("../lib/mcp"),
    import("../lib/mcp"),
    import("../lib/mcp"),
    import("../lib/security"),
  ]);
  return {
    createPrismaClient: database.createPrismaClient,
    DatabaseError: database.DatabaseError,
    PrismaServerRegistry: database.PrismaServerRegistry,
    EntryConnectionError: connect.EntryConnectionError,
    listEntryTools: connect.listEntryTools,
    testEntryConnection: connect.testEntryConnection,
    RegistrySecretError: registry.RegistrySecretError,
    ServerEntryError: registry.ServerEntryError,
    stdioCatalogueFromEnvironment: catalogue.stdioCatalogueFromEnvironment,
    SecretError: secrets.SecretError,
  };
}
let lib: Awaited<ReturnType<typeof loadLibrary>>;

const usage = "usage: npm run servers -- add FILE.json | list | test ID | tools ID | remove ID | catalogue [--json]";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** An expected failure: one line for the person, exit 1. */
class CommandFailure extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

type Output = { json: boolean; print(text: string, data: unknown): void };

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { json: { type: "boolean", default: false } }, allowPositionals: true });
  } catch (error) {
    console.error(`servers: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, argument, ...rest] = positionals;
  const output: Output = { json: values.json, print: (text, data) => console.log(values.json ? JSON.stringify(data, null, 2) : text) };
  const needsArgument = ["add", "test", "tools", "remove"].includes(command ?? "");
  const bare = command === "list" || command === "catalogue";
  if (!command || (!needsArgument && !bare) || (needsArgument && !argument) || rest.length || (bare && argument)) {
    console.error(usage);
    return 2;
  }
  // The user's working directory for FILE.json (npm runs scripts from the project root).
  const userDirectory = process.env.INIT_CWD ?? process.cwd();
  process.chdir(root);
  lib = await loadLibrary();
  if (command === "catalogue") return catalogue(output);
  const client = lib.createPrismaClient();
  const registry = new lib.PrismaServerRegistry(client);
  try {
    if (command === "add") await add(registry, path.resolve(userDirectory, argument), output);
    if (command === "list") await list(registry, output);
    if (command === "test") return await test(registry, argument, output);
    if (command === "tools") await tools(registry, argument, output);
    if (command === "remove") await remove(registry, argument, output);
    return 0;
  } catch (error) {
    const failure = asFailure(error);
    if (!failure) throw error;
    if (output.json) console.log(JSON.stringify({ ok: false, error: failure.message, ...(failure.field !== undefined ? { field: failure.field } : {}) }, null, 2));
    else console.error(`servers: ${failure.message}`);
    return 1;
  } finally {
    await client.$disconnect().catch(() => undefined);
  }
}

function asFailure(error: unknown): CommandFailure | null {
  if (error instanceof CommandFailure) return error;
  if (error instanceof lib.ServerEntryError) return new CommandFailure(error.context.stored ? error.message : `refused: ${error.message}`, error.field);
  if (error instanceof lib.DatabaseError || error instanceof lib.SecretError || error instanceof lib.RegistrySecretError || error instanceof lib.EntryConnectionError) {
    return new CommandFailure(error.message);
  }
  return null;
}

async function add(registry: PrismaServerRegistry, file: string, output: Output): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CommandFailure(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CommandFailure(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const { secretValues, ...input } = (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : { entry: parsed }) as Record<string, unknown>;
  if (secretValues !== undefined && !isStringRecord(secretValues)) throw new CommandFailure('"secretValues" must be an object of strings', "secretValues");
  const entry = await registry.save(input, { secretValues: secretValues as Record<string, string> | undefined });
  const listing = await registry.describe(entry.id);
  output.print(`saved server '${entry.id}' (${target(entry)})`, { ok: true, server: listing && summary(listing) });
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === "string");
}

async function list(registry: PrismaServerRegistry, output: Output): Promise<void> {
  const listings = await registry.list();
  const lines = listings.map((listing) =>
    listing.ok
      ? `${listing.id}\t${listing.entry.transport}\t${target(listing.entry)}\t${listing.entry.enabled ? "enabled" : "disabled"}${secretsText(listing.secrets)}`
      : `${listing.id}\tREFUSED\t${listing.error}`,
  );
  output.print(lines.length ? lines.join("\n") : "no servers registered (add one with: npm run servers -- add FILE.json)", listings.map(summary));
}

async function test(registry: PrismaServerRegistry, id: string, output: Output): Promise<number> {
  const resolved = await resolve(registry, id);
  const report = await lib.testEntryConnection(resolved.entry, { secretValues: resolved.secretValues });
  if (report.ok) {
    const server = report.serverName ? `${report.serverName}${report.serverVersion ? ` ${report.serverVersion}` : ""}, ` : "";
    output.print(`ok: connected to '${id}' (${server}${report.toolCount} tools) in ${report.durationMs} ms`, { id, ...report });
    return 0;
  }
  if (output.json) output.print("", { id, ...report });
  else console.error(`servers: '${id}' failed: ${report.error}`);
  return 1;
}

async function tools(registry: PrismaServerRegistry, id: string, output: Output): Promise<void> {
  const resolved = await resolve(registry, id);
  const listed = await lib.listEntryTools(resolved.entry, { secretValues: resolved.secretValues });
  const text = listed.map((tool) =>
    tool.problem ? `${tool.name} — cannot be offered: ${tool.problem}` : `${tool.name}${tool.description ? ` — ${tool.description.split("\n")[0]}` : ""}\n  input: ${JSON.stringify(tool.inputSchema)}`,
  );
  output.print(text.length ? text.join("\n") : `'${id}' lists no tools`, listed);
}

/** The stdio catalogue as the form offers it: each entry, what it runs, what an entry fills in. */
function catalogue(output: Output): number {
  const read = lib.stdioCatalogueFromEnvironment();
  if (!read.ok) {
    console.error(`servers: the stdio catalogue is refused: ${read.problem}`);
    return 1;
  }
  const lines = read.entries.map((entry) => {
    const parameters = Object.entries(entry.parameters).map(([name, spec]) => `${name} (${spec.type === "path" ? `path within ${spec.within.join(" or ")}` : spec.type === "integer" ? "whole number" : spec.enum ? `one of ${spec.enum.join(", ")}` : `matching ${spec.pattern}`})`);
    const variables = Object.entries(entry.env).filter(([, spec]) => spec.value === undefined).map(([name]) => name);
    return [
      `${entry.id}\t${entry.title}${entry.executable ? "" : " (not installed)"}`,
      `  runs: ${[entry.executable ?? entry.command, ...entry.args.map((arg) => arg.replaceAll(/\{\{\s*folder\s*\}\}/g, entry.folder))].join(" ")}${entry.confine ? ` (confined, network ${entry.confine.network})` : ""}`,
      ...(parameters.length ? [`  parameters: ${parameters.join(", ")}`] : []),
      ...(variables.length ? [`  env: ${variables.join(", ")}`] : []),
    ].join("\n");
  });
  output.print(`${read.file}\n${lines.join("\n")}`, { file: read.file, entries: read.entries.map(({ folder: _folder, ...entry }) => entry) });
  return 0;
}

async function remove(registry: PrismaServerRegistry, id: string, output: Output): Promise<void> {
  if (!(await registry.delete(id))) throw new CommandFailure(`no server '${id}'`);
  output.print(`removed server '${id}'`, { ok: true, id });
}

async function resolve(registry: PrismaServerRegistry, id: string) {
  const resolved = await registry.resolve(id);
  if (!resolved) throw new CommandFailure(`no server '${id}' (see: npm run servers -- list)`);
  return resolved;
}

function target(entry: ServerEntry): string {
  return entry.transport === "stdio" ? [entry.command, ...entry.args].join(" ") : entry.url;
}

function secretsText(secrets: Record<string, string>): string {
  const names = Object.entries(secrets);
  return names.length ? `\tsecrets: ${names.map(([name, state]) => `${name} ${state}`).join(", ")}` : "";
}

/** A listing for --json: never a secret value (there are none in it), only their states. */
function summary(listing: ServerListing) {
  return listing.ok
    ? { id: listing.id, ok: true, entry: listing.entry, secrets: listing.secrets }
    : { id: listing.id, ok: false, name: listing.name, error: listing.error, field: listing.problem.field };
}

/**
 * `npm run servers -- ARGV` (scripts/servers.ts): prints what the command prints and answers its
 * exit code; an internal error is one line and 2, never a stack trace.
 */
export async function serversCommand(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    console.error(`servers: internal error: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    if (process.env.SWITCHBOARD_DEBUG) console.error(error);
    return 2;
  }
}
