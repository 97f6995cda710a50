import http from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, McpServer, type McpRequestContext, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

export interface EraFixtureServer {
  url: string;
  /** The protocol revision of each request it was sent (from the Mcp-Protocol-Version header). */
  seen: string[];
  close(): Promise<void>;
}

/** The tools both fixtures serve: `shout` says which era answered it. */
function fixtureServer(era: string, supportedProtocolVersions?: string[]): McpServer {
  const server = new McpServer({ name: `fixture-${era}`, version: "1.0.0" }, { capabilities: { tools: {} }, ...(supportedProtocolVersions ? { supportedProtocolVersions } : {}) });
  server.registerTool("shout", { description: "Answers in capitals, naming the protocol era that served it", inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true } }, async ({ text }) => ({
    content: [{ type: "text", text: `${text.toUpperCase()} (served at ${era})` }],
  }));
  return server;
}

/**
 * TEST DOUBLE: a v2-SDK MCP server over Streamable HTTP on 127.0.0.1 that
 * speaks only one era. "2026-07-28": the current revision alone
 * (createMcpHandler with legacy requests refused, -32022). "2025-11-25":
 * the 2025 handshake alone, at that revision only (a stateless transport;
 * `server/discover` is an unknown method to it).
 */
export async function startEraFixtureServer(era: "2026-07-28" | "2025-11-25"): Promise<EraFixtureServer> {
  const seen: string[] = [];
  const answer =
    era === "2026-07-28"
      ? createMcpHandler((context: McpRequestContext) => fixtureServer(`${era} (${context.era})`), { legacy: "reject" }).fetch
      : async (request: Request) => {
          const server = fixtureServer(era, ["2025-11-25"]);
          const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
          await server.connect(transport);
          return transport.handleRequest(request);
        };
  const listener = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    seen.push(String(incoming.headers["mcp-protocol-version"] ?? "none"));
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method,
      headers: incoming.headers as Record<string, string>,
      body: incoming.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    const response = await answer(request);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, seen, close: () => new Promise((resolve) => listener.close(() => resolve())) };
}

/** TEST DOUBLE: a server that speaks only a revision from the future: every request is refused with -32022. */
export async function startFutureOnlyServer(): Promise<EraFixtureServer> {
  const seen: string[] = [];
  const listener = http.createServer(async (incoming, outgoing) => {
    let body = "";
    for await (const chunk of incoming) body += chunk;
    const message = JSON.parse(body || "{}") as { id?: number; method?: string };
    seen.push(String(message.method));
    outgoing.writeHead(message.method === "initialize" ? 200 : 400, { "Content-Type": "application/json" });
    outgoing.end(
      JSON.stringify(
        message.method === "initialize"
          ? { jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2099-01-01", capabilities: {}, serverInfo: { name: "future", version: "9" } } }
          : { jsonrpc: "2.0", id: message.id ?? null, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2099-01-01"] } } },
      ),
    );
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, seen, close: () => new Promise((resolve) => listener.close(() => resolve())) };
}
