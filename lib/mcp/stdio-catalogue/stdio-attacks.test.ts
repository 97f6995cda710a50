import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { connectEntry } from "../connect-entry";
import { InMemoryServerRegistry, type ServerEntry, type ServerPolicy } from "../registry";
import { refusal } from "../../../testing/mcp/server-entry-refusal.fixture";
import { serverEverythingLine, shippedStdioCatalogue } from "../server-everything";
import { stdioCatalogueFromText } from "./read-catalogue";

/**
 * Issue 21's attack on stdio servers: a list of forbidden flags kept losing,
 * and six entries ran code. With the catalogue, every form below (and its
 * family) is refused at save, refused again when a caller hands the entry
 * straight to connectEntry, and no process starts: the spawn is counted,
 * and each payload would have written a marker file.
 */
const spawned = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:child_process", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:child_process")>();
  const spawn = ((...args: Parameters<typeof real.spawn>) => {
    spawned.count += 1;
    return real.spawn(...args);
  }) as typeof real.spawn;
  return { ...real, default: { ...real, spawn }, spawn };
});

const folder = mkdtempSync(path.join(os.tmpdir(), "switchboard-stdio-attack-"));
const marker = path.join(folder, "ran");
const nodeCode = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'node')`;
const pythonCode = `open(${JSON.stringify(marker)}, 'w').write('python')`;
const everything = serverEverythingLine(shippedStdioCatalogue());
const [everythingScript] = everything.args;
const npxCli = "/usr/lib/node_modules/npm/bin/npx-cli.js";

/** The machine's catalogue as shipped, plus the weakest entry a test catalogue has: node with a script name. */
const catalogue = stdioCatalogueFromText(
  JSON.stringify({
    servers: {
      everything: { title: "Everything", command: "node", args: everything.args, env: { API_TOKEN: {} } },
      script: { title: "A script", command: "node", args: ["{{ script }}"], parameters: { script: { type: "string", pattern: "[a-z][a-z0-9-]*\\.js" } } },
      files: { title: "Files", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "{{ root }}"], parameters: { root: { type: "path", within: [folder] } } },
    },
  }),
  { file: "/etc/switchboard.stdio.json" },
);
const policy: ServerPolicy = { stdioDisabled: false, allowedPrivateOrigins: [], stdioCatalogue: catalogue };

const line = (command: string, args: string[], env?: Record<string, string>) => ({ id: "attack", name: "Attack", transport: "stdio", command, args, ...(env ? { env } : {}) });

/** Refused at save (nothing stored) and at connect, and nothing spawned or ran. */
async function refusedEverywhere(input: Record<string, unknown>) {
  const registry = new InMemoryServerRegistry({ policy: () => policy });
  const error = await refusal(registry.save(input));
  expect(registry.rows.size).toBe(0);
  if ("command" in input) {
    const bypass = { timeoutMs: 5_000, maxRetries: 0, enabled: true, ...input } as ServerEntry;
    await expect(connectEntry(bypass, { policy })).rejects.toMatchObject({ code: "connection-refused-by-policy" });
  }
  expect(spawned.count).toBe(0);
  expect(existsSync(marker)).toBe(false);
  return error;
}

beforeEach(() => {
  spawned.count = 0;
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the six forms that ran code, and their families, start nothing", () => {
  const forms: Array<[family: string, command: string, args: string[]]> = [
    // 1. The `--` separator skipped the runner-script check.
    ["-- separator", "node", ["--", "-e", nodeCode]],
    ["-- separator", "node", ["--", npxCli, "-c", `node -e "${nodeCode}"`]],
    ["-- separator", "npx", ["-y", "@modelcontextprotocol/server-everything@2026.8.31", "--", "node", "-e", nodeCode]],
    ["-- separator", "npx", ["--", "node", "-e", nodeCode]],
    // 2. Standard-library programs that evaluate their arguments.
    ["standard library", "python3", ["-m", "timeit", "-n", "1", pythonCode]],
    ["standard library", "python3", ["/usr/lib/python3.11/timeit.py", "-n", "1", pythonCode]],
    ["standard library", "python3", ["-m", "pdb", "-c", pythonCode, "x.py"]],
    ["standard library", "python3", ["-m", "cProfile", "-c", pythonCode]],
    ["standard library", "node", ["--input-type=module", "-"]],
    ["standard library", "perl", ["-e", "open(F,'>','" + marker + "')"]],
    ["standard library", "awk", [`BEGIN { printf "" > "${marker}" }`]],
    // 3. A test-reporter flag loading a data: module.
    ["test reporter", "node", ["--test", `--test-reporter=data:text/javascript,${encodeURIComponent(nodeCode)}`, everythingScript]],
    ["test reporter", "node", [`--test-reporter=data:text/javascript,${encodeURIComponent(nodeCode)}`, everythingScript, "stdio"]],
    ["test reporter", "node", ["--experimental-test-module-mocks", "--test-reporter", `data:text/javascript,${nodeCode}`, everythingScript]],
    // 4. Code loaded ahead of the program by flags.
    ["loader flag", "node", ["--require", "/tmp/payload.js", everythingScript]],
    ["loader flag", "node", ["--import=data:text/javascript,1", everythingScript]],
    ["loader flag", "node", ["--env-file=/tmp/evil.env", everythingScript]],
  ];
  it.each(forms)("%s: %s %j", async (_family, command, args) => {
    const error = await refusedEverywhere(line(command, args));
    expect(error.field).toBe("command");
    expect(error.message).toMatch(/no entry of the stdio catalogue|matches no entry of the stdio catalogue/);
    expect(error.problem.catalogueLine).toContain(JSON.stringify(command));
  });

  // 4. An environment variable making node load a native library or other code.
  it.each([
    ["LD_PRELOAD", `${folder}/evil.so`, /LD_PRELOAD cannot be set: it makes the dynamic loader load/],
    ["LD_LIBRARY_PATH", folder, /LD_LIBRARY_PATH cannot be set/],
    ["NODE_OPTIONS", `--require ${folder}/payload.js`, /NODE_OPTIONS cannot be set/],
    ["NODE_OPTIONS", `--import=data:text/javascript,${nodeCode}`, /NODE_OPTIONS cannot be set/],
    ["node_options", "--require=/tmp/x.js", /node_options cannot be set/],
    ["GCONV_PATH", folder, /GCONV_PATH cannot be set/],
    ["NODE_PATH", folder, /NODE_PATH cannot be set/],
    ["OPENSSL_CONF", `${folder}/engine.cnf`, /OPENSSL_CONF is not declared by the catalogue entry 'everything' \(it declares API_TOKEN\)/],
    ["SSL_CERT_FILE", `${folder}/x`, /SSL_CERT_FILE is not declared/],
  ])("environment: %s on the allowed command line", async (name, value, message) => {
    const error = await refusedEverywhere(line("node", everything.args, { [name]: value }));
    expect(error.field).toBe(`env.${name}`);
    expect(error.message).toMatch(message);
  });

  it("a catalogue that declares a loader variable is itself refused, at its line", () => {
    const text = `{\n  "servers": {\n    "x": {\n      "title": "X",\n      "command": "node",\n      "args": ["server.js"],\n      "env": { "LD_PRELOAD": {} }\n    }\n  }\n}\n`;
    expect(stdioCatalogueFromText(text, { file: "/etc/switchboard.stdio.json" })).toEqual({
      ok: false,
      file: "/etc/switchboard.stdio.json",
      problem: expect.stringMatching(/^\/etc\/switchboard\.stdio\.json:7: servers\.x\.env\.LD_PRELOAD: LD_PRELOAD cannot be set/),
    });
  });
});

describe("a catalogue choice's parameters cannot carry code either", () => {
  it.each([
    ["script", "--test-reporter=data:text/javascript,1", /cannot start with '-'/],
    ["script", "-e", /cannot start with '-'/],
    ["script", "payload.js\n--require=x", /line breaks or control characters/],
    ["script", "../payload.js", /does not match the pattern/],
    ["script", "/tmp/payload.js", /does not match the pattern/],
  ])("parameters.%s = %j", async (name, value, message) => {
    const error = await refusedEverywhere({ id: "attack", name: "Attack", transport: "stdio", catalogue: "script", parameters: { [name]: value } });
    expect(error.field).toBe(`parameters.${name}`);
    expect(error.message).toMatch(message);
  });

  it.each([
    [`${folder}/../etc`, /cannot contain '\.\.'/],
    ["/etc", /within/],
    [`${folder}//x`, /written plainly/],
    ["--require=/tmp/x.js", /cannot start with '-'/],
  ])("a path parameter: %j", async (value, message) => {
    const error = await refusedEverywhere({ id: "attack", name: "Attack", transport: "stdio", catalogue: "files", parameters: { root: value } });
    expect(error.message).toMatch(message);
  });

  it("a parameter the entry does not declare, a variable it does not declare, a command line beside the choice", async () => {
    expect((await refusedEverywhere({ id: "a", name: "A", transport: "stdio", catalogue: "everything", parameters: { extra: "x" } })).field).toBe("parameters.extra");
    expect((await refusedEverywhere({ id: "a", name: "A", transport: "stdio", catalogue: "everything", env: { NODE_OPTIONS: "--require=/tmp/x.js" } })).field).toBe("env.NODE_OPTIONS");
    expect((await refusedEverywhere({ id: "a", name: "A", transport: "stdio", catalogue: "everything", command: "bash", args: ["-c", "id"] })).field).toBe("catalogue");
    expect((await refusedEverywhere({ id: "a", name: "A", transport: "stdio", catalogue: "nothing-like-it" })).message).toMatch(/'nothing-like-it' is not an entry of the stdio catalogue .* it lists everything, script, files/);
  });
});

describe("a declared variable's pattern", () => {
  it("holds for a secret's value too, checked when it is filled in at start", async () => {
    const patterned = stdioCatalogueFromText(
      JSON.stringify({ servers: { everything: { title: "Everything", command: "node", args: everything.args, env: { API_TOKEN: { pattern: "[a-z0-9]{8,64}" } } } } }),
      { file: "/etc/switchboard.stdio.json" },
    );
    const strict: ServerPolicy = { ...policy, stdioCatalogue: patterned };
    const registry = new InMemoryServerRegistry({ policy: () => strict });
    expect((await refusal(registry.save({ ...line("node", everything.args, { API_TOKEN: "not a token" }) }))).field).toBe("env.API_TOKEN");
    const entry = await registry.save({ ...line("node", everything.args, { API_TOKEN: "{{ secrets.TOKEN }}" }), secrets: ["TOKEN"] });
    await expect(connectEntry(entry, { policy: strict, secretValues: { TOKEN: "{{ x }} --require=/tmp/x.js" } })).rejects.toMatchObject({ code: "connection-refused-by-policy", message: expect.stringMatching(/env\.API_TOKEN: API_TOKEN does not match the pattern/) });
    expect(spawned.count).toBe(0);
  });
});

describe("the counter that shows nothing spawned", () => {
  it("counts the one process an allowed entry starts (so a zero above means something)", async () => {
    const registry = new InMemoryServerRegistry({ policy: () => policy });
    const entry = await registry.save({ id: "everything", name: "Everything", transport: "stdio", catalogue: "everything" });
    const connection = await connectEntry(entry, { policy });
    await connection.close();
    expect(spawned.count).toBe(1);
  });
});
