import { afterEach, describe, expect, it } from "vitest";
import { startWireServer, type WireServer } from "../../testing/ai/wire-server.fixture";
import { guardedWebFetch } from "./guarded-web-fetch";

const servers: WireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("guardedWebFetch", () => {
  it("is a fetch: method, headers and JSON body out; status, headers and a streamed body back", async () => {
    const server = await startWireServer((_request, response) => {
      response.writeHead(201, { "content-type": "text/event-stream", "x-request-id": "r1" });
      response.write("data: 1\n\n");
      setTimeout(() => response.end("data: 2\n\n"), 20);
    });
    servers.push(server);
    const fetch = guardedWebFetch({ allowedOrigins: [server.url] });
    const response = await fetch(`${server.url}/v1/x`, { method: "POST", headers: { "content-type": "application/json", Authorization: "Bearer k" }, body: JSON.stringify({ a: 1 }) });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Created");
    expect(response.url).toBe(`${server.url}/v1/x`);
    expect(response.headers.get("x-request-id")).toBe("r1");
    const pieces: string[] = [];
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(decoder.decode(read.value));
    expect(pieces.join("")).toBe("data: 1\n\ndata: 2\n\n");
    expect(pieces.length).toBeGreaterThan(1); // it arrived as it was sent, not buffered whole
    expect(server.requests[0]).toMatchObject({ method: "POST", path: "/v1/x", body: { a: 1 }, headers: { authorization: "Bearer k" } });
  });

  it("answers a 204 with no body", async () => {
    const server = await startWireServer((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    servers.push(server);
    const response = await guardedWebFetch({ allowedOrigins: [server.url] })(new URL(`${server.url}/ping`));
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("refuses loopback unless allowed, and drops API keys when a redirect leaves the origin", async () => {
    const target = await startWireServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
    const redirecting = await startWireServer((_request, response) => {
      response.writeHead(307, { location: `${target.url}/v1/messages` });
      response.end();
    });
    servers.push(target, redirecting);
    await expect(guardedWebFetch()(`${target.url}/v1/messages`, { method: "POST", body: "{}" })).rejects.toThrow(/127\.0\.0\.1|loopback|private/i);
    expect(target.requests).toEqual([]);
    const fetch = guardedWebFetch({ allowedOrigins: [target.url, redirecting.url], sensitiveHeaders: ["x-api-key"] });
    const response = await fetch(`${redirecting.url}/v1/messages`, { method: "POST", headers: { "x-api-key": "secret", authorization: "Bearer secret", "anthropic-version": "2023-06-01" }, body: "{}" });
    expect(response.status).toBe(200);
    expect(target.requests[0].headers["anthropic-version"]).toBe("2023-06-01");
    expect(target.requests[0].headers["x-api-key"]).toBeUndefined();
    expect(target.requests[0].headers.authorization).toBeUndefined();
  });
});
