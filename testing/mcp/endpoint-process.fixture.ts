/**
 * TEST FIXTURE: one web process serving only the app's MCP route
 * (app/api/mcp/[workflowId]/route.ts) on 127.0.0.1:$PORT, with its own
 * module state, on the database named by DATABASE_URL, and the worker
 * `npm start` embeds (app/runs/embedded-worker.ts: on SQLite by default,
 * on Postgres with SWITCHBOARD_EMBEDDED_WORKER=true), which runs the
 * queued sub-flows of the hosts' task calls. Two of these are
 * two web processes behind a load balancer: workflow-endpoint-processes.test.ts
 * sends one host's requests to both. Started by endpoint-web-process.fixture.ts
 * from a bundle of this file (or through tsx), with `--conditions=react-server`
 * (the condition makes `server-only` importable outside Next); prints
 * `listening <port>` once it accepts requests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { DELETE, GET, POST } from "../../app/api/mcp/[workflowId]/route";
import { startEmbeddedWorker } from "../../lib/runs/embedded-worker";

const handlers: Record<string, typeof POST> = { POST, GET, DELETE };
const port = Number(process.env.PORT);

async function answer(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const url = new URL(incoming.url ?? "/", `http://127.0.0.1:${port}`);
  const match = /^\/api\/mcp\/([^/]+)\/?$/.exec(url.pathname);
  const handler = handlers[incoming.method ?? ""];
  if (!match || !handler) {
    outgoing.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length && incoming.method !== "GET" ? Buffer.concat(chunks) : undefined;
  const response = await handler(new Request(url, { method: incoming.method, headers, body }), { params: Promise.resolve({ workflowId: decodeURIComponent(match[1]) }) });
  outgoing.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

const server = createServer((incoming, outgoing) => {
  answer(incoming, outgoing).catch((error: unknown) => {
    console.error(error);
    if (!outgoing.headersSent) outgoing.writeHead(500);
    outgoing.end();
  });
});
startEmbeddedWorker();
server.listen(port, "127.0.0.1", () => console.log(`listening ${port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
