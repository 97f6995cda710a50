import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One canned reply of a fixture server (test.yaml `fixtures.http`). */
export interface FixtureReply {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  /** Sent as server-sent events, one per item, then `[DONE]`. */
  events?: unknown[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string;
}

export interface FixtureServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * TEST DOUBLE: an HTTP server on 127.0.0.1 that answers from a list of
 * canned replies, matched by method and path (the query is ignored). A
 * request with no reply gets a 404 that names it, so a wrong URL shows up
 * in the failure message. Replies with the same method and path are used in
 * order, the last one repeating.
 */
export async function startFixtureServer(replies: readonly FixtureReply[]): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const used = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://fixture");
      const method = (request.method ?? "GET").toUpperCase();
      requests.push({
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const key = `${method} ${url.pathname}`;
      const candidates = replies.filter((reply) => `${reply.method.toUpperCase()} ${reply.path}` === key);
      if (candidates.length === 0) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `no fixture for ${key}` } }));
        return;
      }
      const index = Math.min(used.get(key) ?? 0, candidates.length - 1);
      used.set(key, index + 1);
      send(candidates[index], response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function send(reply: FixtureReply, response: import("node:http").ServerResponse): void {
  if (reply.events) {
    response.writeHead(reply.status, { "content-type": "text/event-stream", ...reply.headers });
    for (const event of reply.events) response.write(`data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`);
    response.end("data: [DONE]\n\n");
    return;
  }
  const isText = typeof reply.body === "string";
  response.writeHead(reply.status, { "content-type": isText ? "text/plain; charset=utf-8" : "application/json", ...reply.headers });
  response.end(reply.body === undefined ? "" : isText ? (reply.body as string) : JSON.stringify(reply.body));
}
