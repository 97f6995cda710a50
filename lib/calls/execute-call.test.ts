import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, type Call } from "../manifest/schemas";
import { sharedSandbox, type Evaluator } from "../sandbox";
import { type FixtureReply, startFixtureServer } from "./fixture-server";
import { CallFailure } from "./call-failure";
import { type CallContext, executeCall } from "./execute-call";
import { maxReplyBytes } from "./read-reply";

let evaluator: Evaluator;
beforeAll(async () => {
  evaluator = await sharedSandbox();
});

const closers: Array<() => Promise<void>> = [];
/** The origins of the fixture servers this test started: the listed private origins its context may reach. */
const listed: string[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  listed.splice(0);
});

async function fixture(replies: Array<Partial<FixtureReply> & { path: string }>) {
  const server = await startFixtureServer(replies.map((reply) => ({ method: "GET", status: 200, headers: {}, ...reply })));
  closers.push(server.close);
  listed.push(new URL(server.url).origin);
  return server;
}

/** TEST DOUBLE: a raw server on 127.0.0.1 for replies the fixture server cannot give (streams, hangs). */
async function rawServer(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests++;
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  listed.push(url);
  return { url, requests: () => requests };
}

function makeCall(fields: Record<string, unknown>): Call {
  return call.parse({ name: "fetch", url: "{{ config.baseUrl }}/data", ...fields });
}

function context(extra: Partial<CallContext> = {}): CallContext {
  return { evaluator, allowedOrigins: listed, sleep: async () => {}, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<CallFailure> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CallFailure);
  return error as CallFailure;
}

describe("executeCall transports", () => {
  it("json: parses the reply and sends templated query, headers, body and credential", async () => {
    const server = await fixture([{ method: "POST", path: "/data", body: { ok: true, items: [1, 2] }, headers: { "x-request-id": "r1" } }]);
    const reply = await executeCall(
      makeCall({
        method: "POST",
        query: { q: "{{ params.q }}" },
        headers: { "X-Trace": "t-{{ params.q }}" },
        body: { q: "{{ params.q }}" },
        credential: { scheme: "bearer", token: "{{ credentials.api.token }}" },
      }),
      { config: { baseUrl: server.url }, params: { q: "a b" } },
      context({ credentials: { api: { token: "tok" } } }),
    );
    expect(reply).toMatchObject({ status: 200, response: { ok: true, items: [1, 2] }, headers: { "x-request-id": "r1" } });
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: "POST",
        path: "/data",
        query: { q: "a b" },
        body: '{"q":"a b"}',
        headers: expect.objectContaining({ authorization: "Bearer tok", "x-trace": "t-a b", "content-type": "application/json" }),
      }),
    ]);
  });

  it("text: keeps the reply as text even when it looks like JSON", async () => {
    const server = await fixture([{ path: "/data", body: '{"not":"parsed"}' }]);
    const reply = await executeCall(makeCall({ transport: "text" }), { config: { baseUrl: server.url } }, context());
    expect(reply.response).toBe('{"not":"parsed"}');
  });

  it("json: a 2xx reply that is not JSON is an invalid-reply failure", async () => {
    const server = await fixture([{ path: "/data", body: "<html>oops</html>" }]);
    const thrown = await failure(executeCall(makeCall({}), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("invalid-reply");
    expect(thrown.message).toMatch(/not valid JSON/);
  });

  it("json: an empty 2xx reply is null", async () => {
    const server = await fixture([{ path: "/data", status: 204 }]);
    const reply = await executeCall(makeCall({}), { config: { baseUrl: server.url } }, context());
    expect(reply).toMatchObject({ status: 204, response: null });
  });

  it("sse: collects the events up to the terminator and hands each to onEvent", async () => {
    const server = await fixture([{ method: "POST", path: "/data", events: [{ delta: "Hel" }, { delta: "lo" }, "plain text"] }]);
    const seen: unknown[] = [];
    const reply = await executeCall(
      makeCall({ method: "POST", transport: "sse", terminator: "[DONE]", body: {} }),
      { config: { baseUrl: server.url } },
      context({ onEvent: (event) => seen.push(event) }),
    );
    expect(reply.response).toEqual([{ delta: "Hel" }, { delta: "lo" }, "plain text"]);
    expect(seen).toEqual(reply.response);
    expect(server.requests[0].headers.accept).toBe("text/event-stream");
  });

  it("sse: stops at the terminator even when the server keeps the stream open", async () => {
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: 1\n\n");
      response.write("data: [DONE]\n\n");
      // never ends
    });
    const reply = await executeCall(makeCall({ transport: "sse", terminator: "[DONE]", timeoutMs: 5000 }), { config: { baseUrl: server.url } }, context());
    expect(reply.response).toEqual([1]);
  });

  it("sse: reads multi-line data, CRLF line ends, comments and named events", async () => {
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(": keep-alive\r\n\r\n");
      response.write("event: message\r\ndata: line one\r\ndata: line two\r\n\r\n");
      response.write('id: 7\ndata: {"a":');
      response.end('1}\n\n');
    });
    const reply = await executeCall(makeCall({ transport: "sse" }), { config: { baseUrl: server.url } }, context());
    expect(reply.response).toEqual(["line one\nline two", { a: 1 }]);
  });

  it("sse: keeps a character whose bytes arrive in two chunks", async () => {
    const euro = Buffer.from("data: 5 €\n\n", "utf8");
    const cut = euro.indexOf(0xe2) + 1; // inside the three bytes of €
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(euro.subarray(0, cut));
      // a pause on the server side so the two halves reach the client as two chunks
      setTimeout(() => response.end(euro.subarray(cut)), 50);
    });
    const reply = await executeCall(makeCall({ transport: "sse" }), { config: { baseUrl: server.url } }, context());
    expect(reply.response).toEqual(["5 €"]);
  });

  it("ndjson: one JSON value a line, lines split across chunks, terminator honoured", async () => {
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write('{"n":1}\n{"n"');
      response.write(':2}\r\n\n');
      response.write('{"n":3}\n"END"\n{"n":4}\n');
      response.end();
    });
    const seen: unknown[] = [];
    const reply = await executeCall(makeCall({ transport: "ndjson", terminator: '"END"' }), { config: { baseUrl: server.url } }, context({ onEvent: (event) => seen.push(event) }));
    expect(reply.response).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it("ndjson: a line that is not JSON is an invalid-reply failure", async () => {
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.end('{"n":1}\nnot json\n');
    });
    const thrown = await failure(executeCall(makeCall({ transport: "ndjson" }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("invalid-reply");
  });

  it("a streamed call answered with an error status reads the error body instead", async () => {
    const server = await fixture([{ path: "/data", status: 401, body: { error: { message: "invalid api key" } } }]);
    const thrown = await failure(executeCall(makeCall({ transport: "sse" }), { config: { baseUrl: server.url } }, context()));
    expect(thrown).toMatchObject({ code: "http-status", status: 401 });
    expect(thrown.message).toMatch(/answered 401: invalid api key/);
  });
});

describe("executeCall statuses, okOn and error", () => {
  it("fails a non-2xx status with the status and the server's reason", async () => {
    const server = await fixture([{ path: "/data", status: 422, body: { message: "q is required" } }]);
    const thrown = await failure(executeCall(makeCall({}), { config: { baseUrl: server.url } }, context()));
    expect(thrown).toMatchObject({ code: "http-status", status: 422, callName: "fetch" });
    expect(thrown.message).toBe(`call 'fetch': ${new URL(server.url).host} answered 422: q is required`);
  });

  it("keeps an HTML error page as text in the failure", async () => {
    const server = await fixture([{ path: "/data", status: 500, body: "Internal   Server\nError" }]);
    const thrown = await failure(executeCall(makeCall({}), { config: { baseUrl: server.url } }, context()));
    expect(thrown.message).toMatch(/answered 500: Internal Server Error$/);
  });

  it("okOn: a listed status counts as success and its reply is returned", async () => {
    const server = await fixture([{ path: "/data", status: 404, body: { message: "Not Found" } }]);
    const reply = await executeCall(makeCall({ okOn: [404] }), { config: { baseUrl: server.url } }, context());
    expect(reply).toMatchObject({ status: 404, response: { message: "Not Found" } });
  });

  it("error.when: a matching 2xx reply fails with the rendered message", async () => {
    const server = await fixture([{ path: "/data", body: { ok: false, error: "channel_not_found" } }]);
    const thrown = await failure(
      executeCall(
        makeCall({ error: { when: "return response.ok === false", message: "Slack refused: {{ response.error }} (status {{ status }})" } }),
        { config: { baseUrl: server.url } },
        context(),
      ),
    );
    expect(thrown).toMatchObject({ code: "error-when", status: 200, message: "Slack refused: channel_not_found (status 200)" });
  });

  it("error.when: a reply it does not match passes", async () => {
    const server = await fixture([{ path: "/data", body: { ok: true } }]);
    const reply = await executeCall(makeCall({ error: { when: "return response.ok === false", message: "x" } }), { config: { baseUrl: server.url } }, context());
    expect(reply.response).toEqual({ ok: true });
  });

  it("error.when: applies to an error status too, with its own message", async () => {
    const server = await fixture([{ path: "/data", status: 400, body: { reason: "Timezone is invalid" } }]);
    const thrown = await failure(
      executeCall(makeCall({ error: { when: "return status >= 400", message: "return 'The service said: ' + response.reason" } }), { config: { baseUrl: server.url } }, context()),
    );
    expect(thrown).toMatchObject({ code: "error-when", status: 400, message: "The service said: Timezone is invalid" });
  });

  it("error.when that throws is a template failure", async () => {
    const server = await fixture([{ path: "/data", body: {} }]);
    const thrown = await failure(executeCall(makeCall({ error: { when: "return response.a.b.c", message: "x" } }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("template");
    expect(thrown.message).toMatch(/error check failed/);
  });
});

describe("executeCall retries", () => {
  it("retries a 503 and succeeds on the second try", async () => {
    const server = await fixture([
      { path: "/data", status: 503, body: { message: "busy" } },
      { path: "/data", status: 200, body: { done: true } },
    ]);
    const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
    const reply = await executeCall(makeCall({ retry: { attempts: 3, delayMs: 100 } }), { config: { baseUrl: server.url } }, context({ sleep }));
    expect(reply.response).toEqual({ done: true });
    expect(server.requests).toHaveLength(2);
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([100]);
  });

  it("gives up after its attempts and says what the last answer was", async () => {
    const server = await fixture([{ path: "/data", status: 503, body: { message: "still busy" } }]);
    const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
    const thrown = await failure(executeCall(makeCall({ retry: { attempts: 3, delayMs: 100 } }), { config: { baseUrl: server.url } }, context({ sleep })));
    expect(thrown).toMatchObject({ code: "http-status", status: 503 });
    expect(thrown.message).toMatch(/answered 503: still busy/);
    expect(server.requests).toHaveLength(3);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([100, 200]); // exponential
  });

  it("waits a fixed delay with backoff fixed, and Retry-After when the server sends one", async () => {
    const server = await fixture([
      { path: "/data", status: 429, body: {} },
      { path: "/data", status: 429, headers: { "retry-after": "2" }, body: {} },
      { path: "/data", status: 200, body: {} },
    ]);
    const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
    await executeCall(makeCall({ retry: { attempts: 3, backoff: "fixed", delayMs: 50 } }), { config: { baseUrl: server.url } }, context({ sleep }));
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([50, 2000]);
  });

  it("does not retry a status outside retry.on", async () => {
    const server = await fixture([{ path: "/data", status: 404, body: {} }]);
    const thrown = await failure(executeCall(makeCall({ retry: { attempts: 3 } }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.status).toBe(404);
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry without a retry policy", async () => {
    const server = await fixture([{ path: "/data", status: 503, body: {} }]);
    await failure(executeCall(makeCall({}), { config: { baseUrl: server.url } }, context()));
    expect(server.requests).toHaveLength(1);
  });

  it("retries a network failure", async () => {
    const closedUrl = await closedPortUrl();
    const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
    const thrown = await failure(executeCall(makeCall({ retry: { attempts: 2 } }), { config: { baseUrl: closedUrl } }, context({ sleep })));
    expect(thrown.code).toBe("network");
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  it("never retries a refused URL", async () => {
    const server = await fixture([{ path: "/data", body: {} }]);
    const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
    const thrown = await failure(executeCall(makeCall({ retry: { attempts: 3 } }), { config: { baseUrl: server.url } }, context({ allowedOrigins: [], sleep })));
    expect(thrown.code).toBe("url-refused");
    expect(sleep).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(0);
  });
});

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  listed.push(`http://127.0.0.1:${port}`);
  return `http://127.0.0.1:${port}`;
}

describe("executeCall failures", () => {
  it("network: a closed port", async () => {
    const thrown = await failure(executeCall(makeCall({}), { config: { baseUrl: await closedPortUrl() } }, context()));
    expect(thrown.code).toBe("network");
    expect(thrown.message).toMatch(/call 'fetch' to 127\.0\.0\.1:\d+ failed: .*ECONNREFUSED/);
  });

  it("timeout: a server that never answers", async () => {
    const server = await rawServer(() => {
      /* never answers */
    });
    const thrown = await failure(executeCall(makeCall({ timeoutMs: 200 }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("timeout");
    expect(thrown.message).toMatch(/timed out after 200 ms/);
  });

  it("timeout: a server that sends its headers and then stalls", async () => {
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"partial":');
    });
    const thrown = await failure(executeCall(makeCall({ timeoutMs: 200 }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("timeout");
  });

  it("timeout: a stream that stalls before its terminator", async () => {
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: 1\n\n");
    });
    const thrown = await failure(executeCall(makeCall({ transport: "sse", terminator: "[DONE]", timeoutMs: 200 }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("timeout");
  });

  it("timeout: each try has its own limit, and a timeout is retried", async () => {
    const server = await rawServer(() => {
      /* never answers */
    });
    const thrown = await failure(executeCall(makeCall({ timeoutMs: 200, retry: { attempts: 2 } }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("timeout");
    expect(server.requests()).toBe(2);
  });

  it("timeoutMs may come from config", async () => {
    const server = await rawServer(() => {
      /* never answers */
    });
    const thrown = await failure(executeCall(makeCall({ timeoutMs: "{{ config.timeout }}" }), { config: { baseUrl: server.url, timeout: 150 } }, context()));
    expect(thrown.message).toMatch(/timed out after 150 ms/);
  });

  it("url-refused: a loopback origin that is not listed", async () => {
    const server = await fixture([{ path: "/data", body: {} }]);
    const thrown = await failure(executeCall(makeCall({}), { config: { baseUrl: server.url } }, { evaluator, sleep: async () => {} }));
    expect(thrown.code).toBe("url-refused");
    expect(thrown.message).toMatch(/call 'fetch' was refused: 127\.0\.0\.1 is a loopback address/);
    expect(server.requests).toHaveLength(0);
  });

  it("url-refused: a metadata address, even when a retry is allowed", async () => {
    const thrown = await failure(
      executeCall(makeCall({ url: "http://169.254.169.254/latest/meta-data", retry: { attempts: 3 } }), {}, { evaluator, sleep: async () => {} }),
    );
    expect(thrown.code).toBe("url-refused");
  });

  it("template: a URL whose host a parameter would choose", async () => {
    const thrown = await failure(executeCall(makeCall({ url: "{{ params.url }}/x" }), { params: { url: "http://evil.example" } }, context()));
    expect(thrown.code).toBe("template");
    expect(thrown.message).toMatch(/could not be prepared: .*host cannot come from/);
  });

  it("template: a header value HTTP cannot carry is not a network failure and is not retried", async () => {
    const server = await fixture([{ path: "/data", body: {} }]);
    const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
    const thrown = await failure(
      executeCall(makeCall({ headers: { "X-Note": "{{ params.note }}" }, retry: { attempts: 3 } }), { config: { baseUrl: server.url }, params: { note: "a\r\nX-Injected: 1" } }, context({ sleep })),
    );
    expect(thrown.code).toBe("template");
    expect(sleep).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(0);
  });

  it("cancelled: the run's signal aborts the call", async () => {
    const server = await rawServer(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const pending = failure(executeCall(makeCall({ retry: { attempts: 3 } }), { config: { baseUrl: server.url } }, context({ signal: controller.signal })));
    await vi.waitFor(() => expect(server.requests()).toBe(1));
    controller.abort();
    const thrown = await pending;
    expect(thrown.message).toMatch(/was cancelled/);
    expect(server.requests()).toBe(1);
  });
});

describe("executeCall reply size", () => {
  /** Streams `total` bytes of `unit` in 64 KB slices, with backpressure; stops when the client hangs up. */
  function streamingServer(contentType: string, unit: string, total: number) {
    return rawServer((_request, response) => {
      response.writeHead(200, { "content-type": contentType });
      const slice = Buffer.from(unit.repeat(Math.ceil(65536 / unit.length)).slice(0, 65536));
      let sent = 0;
      let closed = false;
      response.on("close", () => {
        closed = true;
      });
      response.on("error", () => {
        closed = true;
      });
      const pump = () => {
        while (!closed && sent < total) {
          sent += slice.length;
          if (!response.write(slice)) return void response.once("drain", pump);
        }
        if (!closed) response.end();
      };
      pump();
    });
  }

  it("refuses a JSON reply over 10 MB with invalid-reply", async () => {
    const server = await streamingServer("application/json", " ", maxReplyBytes + 1024 * 1024);
    const thrown = await failure(executeCall(makeCall({}), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("invalid-reply");
    expect(thrown.message).toMatch(/larger than 10485760 bytes/);
  });

  it("refuses a text reply over 10 MB", async () => {
    const server = await streamingServer("text/plain", "x", maxReplyBytes + 1024 * 1024);
    const thrown = await failure(executeCall(makeCall({ transport: "text" }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("invalid-reply");
  });

  it("refuses a stream over 10 MB", async () => {
    const server = await streamingServer("text/event-stream", "data: 1\n\n", maxReplyBytes + 1024 * 1024);
    const thrown = await failure(executeCall(makeCall({ transport: "sse" }), { config: { baseUrl: server.url } }, context()));
    expect(thrown.code).toBe("invalid-reply");
  });

  it("accepts a reply just under the limit", async () => {
    const server = await streamingServer("text/plain", "y", maxReplyBytes - 65536);
    const reply = await executeCall(makeCall({ transport: "text" }), { config: { baseUrl: server.url } }, context());
    expect((reply.response as string).length).toBe(maxReplyBytes - 65536);
  });
});
