import { execFile } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTemporaryDatabase, type TemporaryDatabase } from "../testing/db/temporary-database.fixture";
import { everythingServerEntry } from "../testing/mcp/everything-server-entry.fixture";
import { type CommandResult, runCommandInProcess } from "../testing/scripts/command-in-process.fixture";
import { serversCommand } from "./servers-command";

let database: TemporaryDatabase;
const root = path.resolve(import.meta.dirname, "..");

beforeAll(async () => {
  database = await createTemporaryDatabase();
}, 60_000);
afterAll(async () => database?.dispose());

/** The environment of every call: the temporary database, its key file, and npm's INIT_CWD (where FILE.json is relative to). */
function commandEnv(): Record<string, string> {
  return { DATABASE_URL: database.url, SWITCHBOARD_SECRET_KEY: "", SWITCHBOARD_SECRET_KEY_FILE: path.join(database.folder, "secret.key"), INIT_CWD: database.folder };
}

/** Runs `npm run servers -- ARGS` as a child (the bundled command, scripts/cli.mjs), against the temporary database. */
function serversAsProcess(...args: string[]): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, "scripts", "cli.mjs"), "servers", ...args], { cwd: root, env: { ...process.env, ...commandEnv() } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** `npm run servers -- ARGS` called in this process: the same command function, no process start per call. */
function servers(...args: string[]): Promise<CommandResult> {
  return runCommandInProcess(serversCommand, args, commandEnv());
}

function file(name: string, content: unknown): string {
  writeFileSync(path.join(database.folder, name), JSON.stringify(content));
  return name;
}

const everything = { ...everythingServerEntry, secretValues: { TOKEN: "tok-cli-secret-value" } };

describe("npm run servers", () => {
  // As a real process once; the other tests call the same command in this process.
  it("adds an entry (FILE.json relative to where npm was run), creating the key file with mode 0600", async () => {
    const result = await serversAsProcess("add", file("everything.json", everything));
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining("saved server 'everything'") });
    expect(statSync(path.join(database.folder, "secret.key")).mode & 0o777).toBe(0o600);
  }, 30_000);

  it("exits 1 with the validation message when an entry is refused, and never prints a stack trace", async () => {
    const bash = await servers("add", file("bash.json", { ...everything, id: "shell", command: "bash", secretValues: undefined }));
    expect(bash.code).toBe(1);
    expect(bash.stderr.trim()).toBe(`servers: refused: command: no entry of the stdio catalogue (${process.env.SWITCHBOARD_STDIO_CATALOGUE}) runs 'bash'`);
    const chosen = await servers("add", file("chosen.json", { id: "chosen", name: "Chosen", transport: "stdio", catalogue: "filesystem", parameters: { root: "/srv/../etc" } }), "--json");
    expect(JSON.parse(chosen.stdout)).toMatchObject({ ok: false, field: "parameters.root", error: expect.stringMatching(/Folder: the path cannot contain '\.\.'/) });
    const metadata = await servers("add", file("meta.json", { id: "meta", name: "Meta", transport: "http", url: "http://[::ffff:169.254.169.254]/" }), "--json");
    expect(metadata.code).toBe(1);
    expect(JSON.parse(metadata.stdout)).toMatchObject({ ok: false, field: "url", error: expect.stringMatching(/link-local/) });
    for (const output of [bash, metadata]) expect(output.stdout + output.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it("lists the stdio catalogue an entry is chosen from", async () => {
    const listed = await servers("catalogue");
    expect(listed).toMatchObject({ code: 0, stdout: expect.stringContaining("test-double\tA server a test stands in for (never started)\n  runs: ") });
    expect(listed.stdout).toContain("  parameters: script (matching [a-z][a-z0-9-]*\\.js|in-memory)");
    const json = JSON.parse((await servers("catalogue", "--json")).stdout);
    expect(json).toMatchObject({ file: process.env.SWITCHBOARD_STDIO_CATALOGUE, entries: expect.arrayContaining([expect.objectContaining({ id: "everything", env: { API_TOKEN: expect.any(Object) } })]) });
  }, 30_000);

  it("tests the connection and lists the tools with their schemas", async () => {
    const test = await servers("test", "everything");
    expect(test).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok: connected to 'everything' \(mcp-servers\/everything .*, \d+ tools\) in \d+ ms/) });
    const tools = await servers("tools", "everything", "--json");
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout)).toContainEqual(expect.objectContaining({ name: "echo", inputSchema: expect.objectContaining({ required: ["message"] }) }));
  }, 60_000);

  it("lists a row tampered with SQL as refused, and refuses to test it", async () => {
    await database.client.$executeRaw`UPDATE "McpServer" SET "command" = 'bash' WHERE "id" = 'everything'`;
    const list = await servers("list", "--json");
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain("tok-cli-secret-value");
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id: "everything", ok: false, field: "command", error: expect.stringMatching(/^the stored server 'everything' is refused/) })]);
    const test = await servers("test", "everything");
    expect(test.code).toBe(1);
    expect(test.stderr).toMatch(/^servers: the stored server 'everything' is refused \(command: no entry of the stdio catalogue .* runs 'bash'/);
  }, 30_000);

  it("removes a server, and says so when there is none; usage mistakes exit 2", async () => {
    expect(await servers("remove", "everything")).toMatchObject({ code: 0, stdout: "removed server 'everything'\n" });
    expect(await servers("remove", "everything")).toMatchObject({ code: 1, stderr: "servers: no server 'everything'\n" });
    expect((await servers("frobnicate")).code).toBe(2);
    expect((await servers("test")).code).toBe(2);
  }, 30_000);
});
