import { describe, expect, it, vi } from "vitest";
import { serverPolicyFromEnvironment, type ServerPolicy } from "./server-policy";
import { parseServerEntry, validateServerEntry } from "./validate-entry";

// Names that resolve without network: one to a private address, one public.
vi.mock("node:dns/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns/promises")>();
  const fake: Record<string, Array<{ address: string; family: number }>> = {
    "intranet.example": [{ address: "10.1.2.3", family: 4 }],
    "metadata-alias.example": [{ address: "169.254.169.254", family: 4 }],
    "mcp.public.example": [{ address: "93.184.216.34", family: 4 }],
  };
  const lookup = async (hostname: string, options: object) => fake[hostname] ?? (real.lookup as (h: string, o: object) => Promise<unknown>)(hostname, options);
  return { ...real, default: { ...real, lookup }, lookup };
});

const guarded: ServerPolicy = { stdioDisabled: false, allowedPrivateOrigins: [] };
const stdio = (command: string, extra: object = {}) => ({ id: "files", name: "Files", transport: "stdio", command, args: ["server.js"], ...extra });
const http = (url: string, transport = "http") => ({ id: "remote", name: "Remote", transport, url });

describe("stdio commands", () => {
  it("allows a command line the stdio catalogue allows, or a catalogue choice made into one", async () => {
    expect(await validateServerEntry(stdio("node", { args: ["server.js"] }), guarded)).toMatchObject({ ok: true, entry: { command: "node", args: ["server.js"] } });
    expect(await validateServerEntry({ id: "files", name: "Files", transport: "stdio", catalogue: "test-double", parameters: { script: "tools.js" } }, guarded)).toMatchObject({ ok: true, entry: { command: "node", args: ["tools.js"] } });
  });

  const refused: Array<[string, string[], RegExp]> = [
    ["bash", ["server.js"], /no entry of the stdio catalogue .* runs 'bash'/],
    ["/usr/bin/env", ["node", "server.js"], /runs '\/usr\/bin\/env'/],
    ["NODE", ["server.js"], /runs 'NODE'/],
    ["node ", ["server.js"], /runs 'node '/],
    ["node", ["server.js", "--inspect"], /matches no entry .*takes 1 arguments, not 2/],
    ["node", ["-e"], /parameter script: the value cannot start with '-'/],
    ["node", ["Server.js"], /parameter script: the value does not match the pattern/],
    ["", ["server.js"], /the command is required/],
  ];
  it.each(refused)("refuses %j %j, naming the command field", async (command, args, message) => {
    const verdict = await validateServerEntry(stdio(command, { args }), guarded);
    expect(verdict).toMatchObject({ ok: false, problem: { field: "command" } });
    if (!verdict.ok) expect(verdict.problem.message).toMatch(message);
  });

  it("refuses every stdio entry when SWITCHBOARD_STDIO_DISABLED=true", async () => {
    const policy = serverPolicyFromEnvironment({ SWITCHBOARD_STDIO_DISABLED: "true" });
    expect(policy.stdioDisabled).toBe(true);
    const verdict = await validateServerEntry(stdio("node"), policy);
    expect(verdict).toEqual({ ok: false, problem: { field: "transport", message: expect.stringMatching(/stdio servers are switched off.*SWITCHBOARD_STDIO_DISABLED=true/) } });
    // http entries are unaffected.
    expect((await validateServerEntry(http("https://93.184.215.14/mcp"), policy)).ok).toBe(true);
  });

  it.each([
    ["PATH", /PATH cannot be set/],
    ["LD_PRELOAD", /LD_PRELOAD cannot be set/],
    ["DYLD_INSERT_LIBRARIES", /cannot be set/],
    ["BAD NAME", /environment variable name/],
    ["EXTRA", /EXTRA is not declared by the catalogue entry 'test-double' \(it declares API_TOKEN, TOKEN, MODE\)/],
  ])("refuses the environment variable %s", async (name, message) => {
    const verdict = await validateServerEntry(stdio("node", { env: { [name]: "x" } }), guarded);
    expect(verdict).toMatchObject({ ok: false, problem: { field: `env.${name}`, message: expect.stringMatching(message) } });
  });
});

describe("http and sse URLs", () => {
  const refused: Array<[string, RegExp]> = [
    ["http://127.0.0.1/mcp", /127\.0\.0\.1 is a loopback address/],
    ["http://127.1:8080/mcp", /loopback/],
    ["http://2130706433/mcp", /loopback/],
    ["http://0x7f000001/mcp", /loopback/],
    ["http://0177.0.0.1/mcp", /loopback/],
    ["http://localhost:3000/mcp", /this machine/],
    ["http://[::1]/mcp", /loopback/],
    ["http://[::ffff:127.0.0.1]/mcp", /loopback/],
    ["http://[::ffff:a9fe:a9fe]/latest", /link-local/],
    ["http://169.254.169.254/latest/meta-data/", /link-local/],
    ["http://metadata.google.internal/computeMetadata/v1/", /metadata/],
    ["http://0.0.0.0/mcp", /unspecified/],
    ["http://[::]/mcp", /unspecified/],
    ["http://10.0.0.5/mcp", /private/],
    ["http://172.16.3.4/mcp", /private/],
    ["http://192.168.1.10/mcp", /private/],
    ["http://100.64.0.1/mcp", /carrier-grade NAT/],
    ["http://[fd00::1]/mcp", /unique-local/],
    ["http://[fe80::1]/mcp", /link-local/],
    ["https://intranet.example/mcp", /resolves to 10\.1\.2\.3, a private address/],
    ["https://metadata-alias.example/mcp", /resolves to 169\.254\.169\.254/],
  ];
  it.each(refused)("refuses %s, naming the url field", async (url, reason) => {
    for (const transport of ["http", "sse"]) {
      const verdict = await validateServerEntry(http(url, transport), guarded);
      expect(verdict).toMatchObject({ ok: false, problem: { field: "url" } });
      if (!verdict.ok) expect(verdict.problem.message).toMatch(reason);
    }
  });

  it.each([
    ["ftp://93.184.215.14/mcp", /only http and https/],
    ["file:///etc/passwd", /only http and https/],
    ["https://user:pass@93.184.215.14/mcp", /user name or password/],
    ["not a url", /not a valid URL/],
    ["https://93.184.215.14/{{ secrets.TOKEN }}", /cannot hold a \{\{ … \}\} template/],
  ])("refuses %s before any lookup", async (url, reason) => {
    const verdict = await validateServerEntry(http(url), guarded);
    expect(verdict).toMatchObject({ ok: false, problem: { field: "url", message: expect.stringMatching(reason) } });
  });

  it.each(["https://93.184.215.14/mcp", "http://1.1.1.1:8080/sse", "https://[2606:4700:4700::1111]/mcp", "https://mcp.public.example/mcp"])("passes %s", async (url) => {
    expect(await validateServerEntry(http(url), guarded)).toMatchObject({ ok: true, entry: { url } });
    expect(await validateServerEntry(http(url, "sse"), guarded)).toMatchObject({ ok: true, entry: { transport: "sse" } });
  });

  it("lets a private server through only when its origin is listed in SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS", async () => {
    const listed = serverPolicyFromEnvironment({ SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: "http://127.0.0.1:4000" });
    expect(await validateServerEntry(http("http://127.0.0.1:4000/mcp"), listed)).toMatchObject({ ok: true });
    expect(await validateServerEntry(http("http://127.0.0.1:4001/mcp"), listed)).toMatchObject({ ok: false, problem: { field: "url", message: expect.stringMatching(/loopback/) } });
    const refusedVerdict = await validateServerEntry(http("http://127.0.0.1:4000/mcp"), serverPolicyFromEnvironment({ SWITCHBOARD_ALLOW_PRIVATE_URLS: "true" }));
    expect(refusedVerdict).toMatchObject({ ok: false, problem: { message: expect.stringContaining("list its origin in SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS") } });
  });
});

describe("the entry's shape", () => {
  it("fills the defaults: timeoutMs 30000, maxRetries 2, enabled", () => {
    expect(parseServerEntry(stdio("npx", { args: ["mcp-server"] }))).toEqual({
      ok: true,
      entry: { id: "files", name: "Files", transport: "stdio", command: "npx", args: ["mcp-server"], timeoutMs: 30_000, maxRetries: 2, enabled: true },
    });
  });

  it("refuses a stdio entry with no program to run (no catalogue entry runs node alone)", async () => {
    expect(await validateServerEntry(stdio("node", { args: [] }), guarded)).toMatchObject({ ok: false, problem: { field: "command", message: expect.stringMatching(/takes 1 arguments, not 0/) } });
  });

  it("keeps the optional fields it is given", () => {
    const input = { ...http("https://93.184.215.14/mcp"), timeoutMs: 5000, toolTimeoutMs: 0, maxRetries: 0, maxConcurrentCalls: 3, enabled: false };
    expect(parseServerEntry(input)).toEqual({ ok: true, entry: input });
  });

  it.each<[object, string, RegExp]>([
    [{ ...stdio("node"), url: "https://x.example" }, "url", /'url' is not a field of this kind of server/],
    [{ ...http("https://93.184.215.14/"), command: "node" }, "command", /'command' is not a field/],
    [{ id: "x", name: "X", transport: "tcp" }, "transport", /must be stdio, http or sse/],
    [{ ...stdio("node"), name: undefined }, "name", /name is required/],
    [{ ...stdio("node"), id: "has space" }, "id", /letters, digits, - and _/],
    [{ ...stdio("node"), timeoutMs: 10 }, "timeoutMs", /at least 100 ms/],
    [{ ...stdio("node"), maxRetries: 1.5 }, "maxRetries", /whole number/],
    [{ ...stdio("node"), maxConcurrentCalls: 0 }, "maxConcurrentCalls", /at least 1/],
    [{ ...stdio("node"), allowedAgents: ["researcher"] }, "allowedAgents", /allowedAgents/],
    [{ ...stdio("node"), env: { TOKEN: "{{ secrets.TOKEN }}" } }, "env.TOKEN", /uses the secret TOKEN, which is not in the server's secrets/],
    [{ ...stdio("node"), env: { TOKEN: "{{ credentials.x.y }}" }, secrets: ["TOKEN"] }, "env.TOKEN", /only \{\{ secrets.NAME \}\} templates/],
    [{ ...stdio("node"), args: ["--token={{ secrets.TOKEN }}"], secrets: ["TOKEN"] }, "args.0", /secrets go in env or header values/],
    [{ ...http("https://93.184.215.14/"), headers: { Host: "internal" } }, "headers.Host", /set by the transport/],
    [{ ...http("https://93.184.215.14/"), headers: { "X-A": "a\r\nX-B: b" } }, "headers.X-A", /line breaks/],
    [{ ...stdio("node"), secrets: ["A", "A"] }, "secrets", /listed twice/],
  ])("refuses %j at %s", (input, field, message) => {
    expect(parseServerEntry(input)).toEqual({ ok: false, problem: { field, message: expect.stringMatching(message) } });
  });

  it("accepts secrets used in env and header values", () => {
    expect(parseServerEntry({ ...stdio("npx", { args: ["mcp-server"] }), env: { GITHUB_TOKEN: "{{ secrets.GITHUB_TOKEN }}" }, secrets: ["GITHUB_TOKEN"] }).ok).toBe(true);
    expect(parseServerEntry({ ...http("https://93.184.215.14/"), headers: { Authorization: "Bearer {{secrets.TOKEN}}" }, secrets: ["TOKEN"] }).ok).toBe(true);
  });

  it("refuses what is not an object", () => {
    for (const input of [null, "entry", 3, []]) expect(parseServerEntry(input)).toMatchObject({ ok: false, problem: { field: "" } });
  });
});
