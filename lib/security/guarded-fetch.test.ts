import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { guardedFetch, maxRedirects, UrlRefusedError } from "./guarded-fetch";
import { checkUrl } from "./url-guard";

// Wrap the real checkUrl in a spy, so the test can see which URLs were checked.
vi.mock("./url-guard", async (importOriginal) => {
  const real = await importOriginal<typeof import("./url-guard")>();
  return { ...real, checkUrl: vi.fn(real.checkUrl) };
});

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** TEST DOUBLE: an HTTP server on 127.0.0.1 answering with `handle`, recording every request. */
async function startServer(handle: (request: Seen, response: ServerResponse) => void): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const record = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      seen.push(record);
      handle(record, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function redirect(response: ServerResponse, location: string, status = 302): void {
  response.writeHead(status, { location });
  response.end();
}

async function text(body: NodeJS.ReadableStream): Promise<string> {
  let result = "";
  for await (const chunk of body) result += chunk.toString();
  return result;
}

/** /chain/N redirects to /chain/N-1; /chain/0 answers "end". */
function chain(request: Seen, response: ServerResponse): void {
  const match = /^\/chain\/(\d+)$/.exec(request.path);
  const left = Number(match?.[1] ?? 0);
  if (left > 0) return redirect(response, `/chain/${left - 1}`);
  response.writeHead(200, { "content-type": "text/plain" });
  response.end("end");
}

const closers: Array<() => Promise<void>> = [];
/** The origins of the servers this test started, listed as SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS would list them. */
const listed: string[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  listed.splice(0);
});
beforeEach(() => {
  vi.mocked(checkUrl).mockClear();
});

async function server(handle: (request: Seen, response: ServerResponse) => void) {
  const started = await startServer(handle);
  closers.push(started.close);
  listed.push(started.url);
  return started;
}

describe("guardedFetch without a listed origin", () => {
  it("refuses loopback before connecting", async () => {
    const target = await server(chain);
    const attempt = guardedFetch(`${target.url}/chain/0`, { method: "GET" });
    await expect(attempt).rejects.toBeInstanceOf(UrlRefusedError);
    await expect(guardedFetch(`${target.url}/chain/0`, { method: "GET" })).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    expect(target.seen).toHaveLength(0);
  });

  it("refuses a non-http scheme with code url-refused", async () => {
    await expect(guardedFetch("file:///etc/passwd", { method: "GET" })).rejects.toMatchObject({ code: "url-refused", message: expect.stringMatching(/only http and https/) });
  });
});

describe("guardedFetch redirects", () => {
  it(`follows up to ${maxRedirects} redirects and reports the URL that answered`, async () => {
    const target = await server(chain);
    const answer = await guardedFetch(`${target.url}/chain/5`, { method: "GET", allowedOrigins: listed });
    expect(answer.status).toBe(200);
    expect(answer.url).toBe(`${target.url}/chain/0`);
    expect(await text(answer.body)).toBe("end");
    expect(target.seen.map((request) => request.path)).toEqual(["/chain/5", "/chain/4", "/chain/3", "/chain/2", "/chain/1", "/chain/0"]);
  });

  it("checks every hop with checkUrl, with the same options", async () => {
    const target = await server(chain);
    await guardedFetch(`${target.url}/chain/3`, { method: "GET", allowedOrigins: listed });
    const checked = vi.mocked(checkUrl).mock.calls.map(([url, options]) => [String(url), options?.allowedOrigins]);
    expect(checked).toEqual([
      [`${target.url}/chain/3`, [target.url]],
      [`${target.url}/chain/2`, [target.url]],
      [`${target.url}/chain/1`, [target.url]],
      [`${target.url}/chain/0`, [target.url]],
    ]);
    expect(target.seen).toHaveLength(4);
  });

  it(`refuses a ${maxRedirects + 1}th redirect without following it`, async () => {
    const target = await server(chain);
    await expect(guardedFetch(`${target.url}/chain/6`, { method: "GET", allowedOrigins: listed })).rejects.toMatchObject({
      code: "url-refused",
      message: `more than ${maxRedirects} redirects`,
    });
    expect(target.seen.map((request) => request.path)).toEqual(["/chain/6", "/chain/5", "/chain/4", "/chain/3", "/chain/2", "/chain/1"]);
  });

  it("refuses an endless redirect loop", async () => {
    const target = await server((_request, response) => redirect(response, "/loop"));
    await expect(guardedFetch(`${target.url}/loop`, { method: "GET", allowedOrigins: listed })).rejects.toThrow(/more than 5 redirects/);
    expect(target.seen).toHaveLength(maxRedirects + 1);
  });

  it.each([
    ["file:///etc/passwd", /only http and https/],
    ["ftp://127.0.0.1/", /only http and https/],
    ["gopher://127.0.0.1:6379/_FLUSHALL", /only http and https/],
    ["data:text/plain,hello", /only http and https/],
    ["javascript:alert(1)", /only http and https/],
    ["http://user:secret@127.0.0.1/", /user name or password/],
  ])("refuses a redirect to %s, even from a listed origin", async (location, reason) => {
    const target = await server((_request, response) => redirect(response, location));
    await expect(guardedFetch(`${target.url}/go`, { method: "GET", allowedOrigins: listed })).rejects.toMatchObject({ code: "url-refused", message: expect.stringMatching(reason) });
    expect(target.seen).toHaveLength(1);
  });

  it("resolves a relative Location against the current URL", async () => {
    const target = await server((request, response) => {
      if (request.path === "/a/b") return redirect(response, "../c?x=1");
      response.end(request.path);
    });
    const answer = await guardedFetch(`${target.url}/a/b`, { method: "GET", allowedOrigins: listed });
    expect(await text(answer.body)).toBe("/c?x=1");
  });

  it("turns a POST into a GET without a body on 303 (and 301/302)", async () => {
    for (const status of [301, 302, 303]) {
      const target = await server((request, response) => {
        if (request.path === "/form") return redirect(response, "/done", status);
        response.end("ok");
      });
      await text((await guardedFetch(`${target.url}/form`, { method: "POST", body: '{"a":1}', headers: { "content-type": "application/json" }, allowedOrigins: listed })).body);
      expect(target.seen.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
        { method: "POST", path: "/form", body: '{"a":1}' },
        { method: "GET", path: "/done", body: "" },
      ]);
    }
  });

  it("keeps the method and body on 307 and 308", async () => {
    for (const status of [307, 308]) {
      const target = await server((request, response) => {
        if (request.path === "/form") return redirect(response, "/done", status);
        response.end("ok");
      });
      await text((await guardedFetch(`${target.url}/form`, { method: "PUT", body: "payload", allowedOrigins: listed })).body);
      expect(target.seen.map(({ method, body }) => ({ method, body }))).toEqual([
        { method: "PUT", body: "payload" },
        { method: "PUT", body: "payload" },
      ]);
    }
  });

  it("does not follow a 3xx without a Location, nor a 304", async () => {
    const target = await server((request, response) => {
      response.writeHead(request.path === "/304" ? 304 : 302, request.path === "/304" ? { location: "/elsewhere" } : {});
      response.end();
    });
    expect((await guardedFetch(`${target.url}/304`, { method: "GET", allowedOrigins: listed })).status).toBe(304);
    expect((await guardedFetch(`${target.url}/no-location`, { method: "GET", allowedOrigins: listed })).status).toBe(302);
    expect(target.seen).toHaveLength(2);
  });

  // Design gap: the request's headers (the Authorization header a `credential`
  // put there) are sent unchanged to whatever host a redirect names. Browsers'
  // fetch drops Authorization when a redirect crosses origins.
  it("does not send the Authorization header on to another origin", async () => {
    const other = await server((_request, response) => response.end("other"));
    const first = await server((_request, response) => redirect(response, `${other.url}/collect`));
    await text((await guardedFetch(`${first.url}/start`, { method: "GET", headers: { authorization: "Bearer secret-token", "x-api-key": "k-123" }, allowedOrigins: listed })).body);
    expect(first.seen[0].headers.authorization).toBe("Bearer secret-token");
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0].headers.authorization).toBeUndefined();
  });
});

describe("guardedFetch and listed private origins", () => {
  it("reaches a listed origin and refuses a loopback origin that is not listed, on another port of the same address", async () => {
    const allowed = await server((_request, response) => response.end("allowed"));
    const other = await server((_request, response) => response.end("other"));
    expect(await text((await guardedFetch(`${allowed.url}/`, { method: "GET", allowedOrigins: [allowed.url] })).body)).toBe("allowed");
    await expect(guardedFetch(`${other.url}/`, { method: "GET", allowedOrigins: [allowed.url] })).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    expect(other.seen).toHaveLength(0);
  });

  it("refuses a redirect from a listed origin to a private origin that is not listed", async () => {
    const unlisted = await server((_request, response) => response.end("should not be reached"));
    const allowed = await server((_request, response) => redirect(response, `${unlisted.url}/internal`));
    await expect(guardedFetch(`${allowed.url}/start`, { method: "GET", allowedOrigins: [allowed.url] })).rejects.toMatchObject({
      code: "url-refused",
      message: expect.stringMatching(/127\.0\.0\.1 is a loopback address/),
    });
    expect(allowed.seen).toHaveLength(1);
    expect(unlisted.seen).toHaveLength(0);
  });
});

describe("guardedFetch cancellation", () => {
  it("rejects when its signal aborts while waiting for an answer", async () => {
    const target = await server(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const attempt = guardedFetch(`${target.url}/hang`, { method: "GET", allowedOrigins: listed, signal: controller.signal });
    await vi.waitFor(() => expect(target.seen).toHaveLength(1));
    controller.abort();
    await expect(attempt).rejects.toMatchObject({ name: "AbortError" });
  });
});
