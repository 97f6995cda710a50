import { afterEach, describe, expect, it } from "vitest";
import { type FixtureServer, startFixtureServer } from "./fixture-server";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("startFixtureServer (test double)", () => {
  it("listens on 127.0.0.1 and records every request", async () => {
    server = await startFixtureServer([{ method: "POST", path: "/v1/items", status: 201, headers: { "x-id": "7" }, body: { id: 7 } }]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/v1/items?x=1&y=two`, { method: "POST", body: '{"a":1}', headers: { "content-type": "application/json" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-id")).toBe("7");
    expect(await response.json()).toEqual({ id: 7 });
    expect(server.requests).toEqual([
      expect.objectContaining({ method: "POST", path: "/v1/items", query: { x: "1", y: "two" }, body: '{"a":1}', headers: expect.objectContaining({ "content-type": "application/json" }) }),
    ]);
  });

  it("answers a request it has no reply for with a 404 that names it", async () => {
    server = await startFixtureServer([{ method: "GET", path: "/a", status: 200, headers: {} }]);
    const response = await fetch(`${server.url}/b`, { method: "DELETE" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { message: "no fixture for DELETE /b" } });
  });

  it("uses replies for the same method and path in order, the last one repeating", async () => {
    server = await startFixtureServer([
      { method: "GET", path: "/r", status: 503, headers: {}, body: "busy" },
      { method: "GET", path: "/r", status: 200, headers: {}, body: { ok: true } },
    ]);
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await fetch(`${server.url}/r`)).status);
    expect(statuses).toEqual([503, 200, 200]);
  });

  it("sends events as server-sent events ending with [DONE]", async () => {
    server = await startFixtureServer([{ method: "GET", path: "/s", status: 200, headers: {}, events: [{ a: 1 }, "two"] }]);
    const response = await fetch(`${server.url}/s`);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe('data: {"a":1}\n\ndata: two\n\ndata: [DONE]\n\n');
  });

  it("sends a string body as text and an object as JSON", async () => {
    server = await startFixtureServer([
      { method: "GET", path: "/t", status: 200, headers: {}, body: "plain" },
      { method: "GET", path: "/j", status: 200, headers: {}, body: [1, 2] },
    ]);
    const text = await fetch(`${server.url}/t`);
    expect(text.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await text.text()).toBe("plain");
    const json = await fetch(`${server.url}/j`);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(await json.json()).toEqual([1, 2]);
  });
});
