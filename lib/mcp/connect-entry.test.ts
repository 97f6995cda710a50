import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { connectEntry, listEntryTools, stderrSummary, testEntryConnection } from "./connect-entry";
import { parseServerEntry, type ServerEntry, type ServerPolicy } from "./registry";
import { serverEverythingLine } from "./server-everything";
import { stdioCatalogueFromText } from "./stdio-catalogue";

const everythingLine = serverEverythingLine();
/** The machine's catalogue for these tests: server-everything, and node with any script in the temporary folder (for servers that fail to start). */
const catalogue = stdioCatalogueFromText(
  JSON.stringify({
    servers: {
      everything: { title: "Everything", command: everythingLine.command, args: everythingLine.args, env: { API_TOKEN: {} } },
      script: { title: "A script", command: "node", args: ["{{ script }}"], parameters: { script: { type: "path", within: [os.tmpdir(), process.cwd()] } }, env: { T: {} } },
    },
  }),
  { file: "/etc/switchboard.stdio.json" },
);
const guarded: ServerPolicy = { stdioDisabled: false, allowedPrivateOrigins: [], stdioCatalogue: catalogue };
/** The fixture origin listed, as SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS would list it. */
const listing = (...origins: string[]): ServerPolicy => ({ stdioDisabled: false, allowedPrivateOrigins: origins });

function entry(input: object): ServerEntry {
  const verdict = parseServerEntry({ id: "test", name: "Test", timeoutMs: 10_000, ...input });
  if (!verdict.ok) throw new Error(`${verdict.problem.field}: ${verdict.problem.message}`);
  return verdict.entry;
}

describe("stdio entries (server-everything)", () => {
  const everything = entry({ transport: "stdio", ...everythingLine, env: { API_TOKEN: "{{ secrets.TOKEN }}" }, secrets: ["TOKEN"] });

  it("connects, lists its tools with their input schemas, and closes", async () => {
    const tools = await listEntryTools(everything, { secretValues: { TOKEN: "tok-abcdef" }, policy: guarded });
    expect(tools.length).toBeGreaterThanOrEqual(10);
    const echo = tools.find((tool) => tool.name === "echo");
    expect(echo?.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
  });

  it("starts the server with a minimal environment: PATH, HOME and its own env, none of the app's", async () => {
    process.env.SWITCHBOARD_TEST_APP_SECRET = "app-only-value";
    process.env.DATABASE_URL ??= "file:./data/switchboard.db";
    const seen: string[] = [];
    const connection = await connectEntry(everything, { secretValues: { TOKEN: "tok-abcdef" }, policy: guarded, onSecret: (value) => seen.push(value) });
    try {
      const result = await connection.client.callTool({ name: "get-env", arguments: {} });
      const environment = JSON.parse((result.content as Array<{ text: string }>)[0].text) as Record<string, string>;
      expect(environment.API_TOKEN).toBe("tok-abcdef");
      expect(environment.PATH).toBe(process.env.PATH);
      expect(environment).not.toHaveProperty("DATABASE_URL");
      expect(environment).not.toHaveProperty("SWITCHBOARD_TEST_APP_SECRET");
      // The SDK adds its own short list (LOGNAME, SHELL, TERM, USER) to what it is given; nothing else gets through.
      expect(Object.keys(environment).every((name) => ["PATH", "HOME", "API_TOKEN", "LOGNAME", "SHELL", "TERM", "USER"].includes(name))).toBe(true);
      expect(seen).toEqual(["tok-abcdef"]);
    } finally {
      await connection.close();
      delete process.env.SWITCHBOARD_TEST_APP_SECRET;
    }
  });

  it("reports a server that does not start, in words, with secrets redacted", async () => {
    const script = path.join(await mkdtemp(path.join(os.tmpdir(), "switchboard-failing-")), "failing-server.js");
    await writeFile(script, "console.error('Error: the token ' + process.env.T + ' was rejected'); process.exit(3);\n");
    const failing = entry({
      transport: "stdio",
      command: "node",
      args: [script],
      env: { T: "{{ secrets.T }}" },
      secrets: ["T"],
    });
    const report = await testEntryConnection(failing, { secretValues: { T: "tok-leak-me" }, policy: guarded });
    expect(report).toMatchObject({ ok: false, code: "connection-failed", error: "the server process ended before answering; it printed: Error: the token [redacted] was rejected" });
  });

  it("reports a missing module and a missing secret", async () => {
    const missing = entry({ transport: "stdio", command: "node", args: [path.resolve("no-such-server.js")] });
    expect(await testEntryConnection(missing, { policy: guarded })).toMatchObject({ ok: false, error: expect.stringMatching(/ended before answering; it printed: Error: Cannot find module/) });
    expect(await testEntryConnection(everything, { policy: guarded })).toMatchObject({ ok: false, code: "secret-missing", error: expect.stringMatching(/the secret TOKEN has no value/) });
  });

  it("refuses to start anything when stdio is switched off", async () => {
    expect(await testEntryConnection(everything, { policy: { ...guarded, stdioDisabled: true }, secretValues: { TOKEN: "x" } })).toMatchObject({
      ok: false,
      code: "connection-refused-by-policy",
    });
  });
});

/** A fixture MCP server on 127.0.0.1 over Streamable HTTP (/mcp) and SSE (/sse + /messages) that wants a bearer token. */
async function startFixture(): Promise<{ server: Server; origin: string }> {
  const mcp = () => {
    const server = new McpServer({ name: "fixture", version: "1.0.0" });
    server.registerTool("add", { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
    return server;
  };
  const sse = new Map<string, SSEServerTransport>();
  const server = http.createServer(async (request, response) => {
    if (request.headers.authorization !== "Bearer fixture-token") return void response.writeHead(401).end("no");
    const url = new URL(request.url ?? "/", "http://fixture");
    if (url.pathname === "/mcp") {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await mcp().connect(transport);
      return transport.handleRequest(request, response);
    }
    if (url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      sse.set(transport.sessionId, transport);
      return mcp().connect(transport);
    }
    if (url.pathname === "/messages") return sse.get(url.searchParams.get("sessionId") ?? "")?.handlePostMessage(request, response);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("http and sse entries, through the URL guard", () => {
  let fixture: { server: Server; origin: string };
  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => {
    fixture.server.closeAllConnections();
    fixture.server.close();
  });

  const remote = (transport: "http" | "sse", pathname: string) =>
    entry({ transport, url: `${fixture.origin}${pathname}`, headers: { Authorization: "Bearer {{ secrets.TOKEN }}" }, secrets: ["TOKEN"] });

  it.each([
    ["http", "/mcp"],
    ["sse", "/sse"],
  ] as const)("refuses a loopback %s server unless its origin is listed", async (transport, pathname) => {
    expect(await testEntryConnection(remote(transport, pathname), { secretValues: { TOKEN: "fixture-token" }, policy: guarded })).toMatchObject({
      ok: false,
      code: "connection-refused-by-policy",
      error: expect.stringMatching(/refused by the URL guard: 127\.0\.0\.1 is a loopback address/),
    });
  });

  it.each([
    ["http", "/mcp"],
    ["sse", "/sse"],
  ] as const)("connects to a %s server with its secret header, through the guarded fetch", async (transport, pathname) => {
    const tools = await listEntryTools(remote(transport, pathname), { secretValues: { TOKEN: "fixture-token" }, policy: listing(fixture.origin) });
    expect(tools).toEqual([expect.objectContaining({ name: "add", description: "Adds two numbers" })]);
    const connection = await connectEntry(remote(transport, pathname), { secretValues: { TOKEN: "fixture-token" }, policy: listing(fixture.origin) });
    try {
      expect(await connection.client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: "text", text: "5" }] });
    } finally {
      await connection.close();
    }
  });

  it("reports a refused token and a closed port in words", async () => {
    const wrong = await testEntryConnection(remote("http", "/mcp"), { secretValues: { TOKEN: "wrong-token" }, policy: listing(fixture.origin) });
    expect(wrong).toMatchObject({ ok: false, error: expect.stringMatching(/failed to connect/) });
    expect(wrong.ok || wrong.error.includes("wrong-token")).toBe(false);
    const closed = entry({ transport: "http", url: "http://127.0.0.1:9/mcp" });
    expect(await testEntryConnection(closed, { policy: listing("http://127.0.0.1:9") })).toMatchObject({ ok: false, error: "nothing is listening at 127.0.0.1:9 (connection refused)" });
  });
});

describe("stderrSummary", () => {
  it("picks Node's error line, Python's last traceback line, else the last lines", () => {
    expect(stderrSummary("node:internal/x\n  throw err;\nError: Cannot find module 'x'\n    at y")).toBe("Error: Cannot find module 'x'");
    expect(stderrSummary("Traceback (most recent call last):\n  File \"s.py\"\nModuleNotFoundError: No module named 'mcp'")).toBe("ModuleNotFoundError: No module named 'mcp'");
    expect(stderrSummary("a\nb\nc\nd")).toBe("b | c | d");
  });
});

describe("entries that bypass the registry", () => {
  it("are checked against the stdio catalogue again before anything starts: a smuggled -e never runs", async () => {
    const smuggled = { id: "x", name: "X", transport: "stdio", command: "node", args: ["-e", "require('fs').writeFileSync('/tmp/switchboard-smuggled', '1')"], timeoutMs: 5_000, maxRetries: 0, enabled: true } as ServerEntry;
    await expect(connectEntry(smuggled, { policy: guarded })).rejects.toMatchObject({ code: "connection-refused-by-policy", message: expect.stringMatching(/the stdio command is refused: the command line matches no entry of the stdio catalogue/) });
  });
});
