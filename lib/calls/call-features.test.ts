import { describe, expect, it } from "vitest";
import { call, eventsManifest } from "../manifest/schemas";
import { useFixtureServers } from "../../testing/calls/call-test-setup.fixture";
import { runCalls } from "./run-calls";
import { runStep } from "./run-step";

const setup = useFixtureServers();

describe("chunk, state, bodies and replies (fixture server)", () => {
  it("chunk: sends a list in batches, each body reading `batch`", async () => {
    const server = await setup.fixture([{ method: "POST", path: "/rows", body: { ok: true } }]);
    const list = [call.parse({ name: "rows", method: "POST", url: `${server.url}/rows`, chunk: { items: "return config.rows", size: 2 }, body: "return { records: batch }" })];
    const outcome = await runCalls(list, { config: { rows: [1, 2, 3, 4, 5] } }, setup.context());
    expect(setup.requests().map((request) => JSON.parse(request.body).records)).toEqual([[1, 2], [3, 4], [5]]);
    expect(outcome.calls.rows).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
  });

  it("state: a saved value is read by later calls as `state`, and kept for the node's next run", async () => {
    let kept: unknown = null;
    const state = { get: () => kept, set: (value: unknown) => void (kept = value) };
    const server = await setup.fixture([{ path: "/next", body: { ok: true } }]);
    const list = [
      call.parse({ name: "remember", state: "save", value: "return { cursor: 'c9' }" }),
      call.parse({ name: "next", url: `${server.url}/next`, query: { cursor: "return state.cursor" } }),
    ];
    await runCalls(list, {}, { ...setup.context(), state });
    expect(kept).toEqual({ cursor: "c9" });
    expect(setup.requests()[0].query.cursor).toBe("c9");
    const again = await runCalls([call.parse({ name: "read", state: "read" })], {}, { ...setup.context(), state });
    expect(again.calls.read).toEqual({ cursor: "c9" });
  });

  it("xml: the reply becomes a plain object; binary: base64 with its type; headers: the reply's headers", async () => {
    const server = await setup.fixture([
      { path: "/list", headers: { "content-type": "application/xml" }, body: "<?xml version=\"1.0\"?><ListBucketResult><Name>b</Name><Contents><Key>007</Key></Contents><Contents><Key>a.txt</Key></Contents></ListBucketResult>" },
      { path: "/file", headers: { "content-type": "image/png" }, body: "PNG!" },
      { method: "HEAD", path: "/file", headers: { "x-size": "4" } },
    ]);
    const outcome = await runCalls(
      [
        call.parse({ name: "list", url: `${server.url}/list`, transport: "xml" }),
        call.parse({ name: "file", url: `${server.url}/file`, transport: "binary" }),
        call.parse({ name: "head", method: "HEAD", url: `${server.url}/file`, transport: "headers" }),
      ],
      {},
      setup.context(),
    );
    expect(outcome.calls.list).toEqual({ ListBucketResult: { Name: "b", Contents: [{ Key: "007" }, { Key: "a.txt" }] } });
    expect(outcome.calls.file).toEqual({ base64: Buffer.from("PNG!").toString("base64"), contentType: "image/png", bytes: 4 });
    expect((outcome.calls.head as Record<string, string>)["x-size"]).toBe("4");
  });

  it("xml with its own entities is refused (no entity expansion)", async () => {
    const server = await setup.fixture([{ path: "/x", headers: { "content-type": "application/xml" }, body: '<!DOCTYPE a [<!ENTITY b "bbbb">]><a>&b;</a>' }]);
    await expect(runCalls([call.parse({ name: "x", url: `${server.url}/x`, transport: "xml" })], {}, setup.context())).rejects.toThrow(/declares its own entities/);
  });

  it("encodings: binary sends bytes, ndjson one value a line, form url-encoded", async () => {
    const server = await setup.fixture([{ method: "PUT", path: "/up", body: {} }, { method: "POST", path: "/bulk", body: {} }, { method: "POST", path: "/form", body: {} }]);
    await runCalls(
      [
        call.parse({ name: "up", method: "PUT", url: `${server.url}/up`, encoding: "binary", body: Buffer.from("hello").toString("base64") }),
        call.parse({ name: "bulk", method: "POST", url: `${server.url}/bulk`, encoding: "ndjson", body: [{ a: 1 }, { a: 2 }] }),
        call.parse({ name: "form", method: "POST", url: `${server.url}/form`, encoding: "form", body: { q: "a b", n: 2 } }),
      ],
      {},
      setup.context(),
    );
    const [up, bulk, form] = setup.requests();
    expect(up.body).toBe("hello");
    expect(up.headers["content-type"]).toBe("application/octet-stream");
    expect(bulk.body).toBe('{"a":1}\n{"a":2}\n');
    expect(form.body).toBe("q=a+b&n=2");
  });

  it("a `return` URL keeps its literal origin; one that leaves it is refused before any request", async () => {
    const server = await setup.fixture([{ path: "/v0/base/Companies%20A", body: { ok: 1 } }]);
    const good = call.parse({ name: "a", url: `return '${server.url}/v0/' + config.base + '/' + encodeURIComponent(config.table)` });
    const outcome = await runCalls([good], { config: { base: "base", table: "Companies A" } }, setup.context());
    expect(outcome.calls.a).toEqual({ ok: 1 });
    const leaving = call.parse({ name: "c", url: "return 'https://api.example.com/' && config.next" });
    await expect(runCalls([leaving], { config: { next: "https://evil.example/" } }, setup.context())).rejects.toThrow(/left its origin/);
  });
});

describe("`return` URLs whose host comes from config", () => {
  it("a base URL or a bare host from config is used; a value that is not one is refused before any request", async () => {
    const server = await setup.fixture([{ path: "/x", body: { ok: true } }]);
    const host = server.url.replace("http://", "");
    const outcome = await runCalls(
      [call.parse({ name: "base", url: "return config.base + '/x'" }), call.parse({ name: "host", url: "return 'http://' + config.host + '/x'" })],
      { config: { base: server.url, host } },
      setup.context(),
    );
    expect(outcome.calls).toEqual({ base: { ok: true }, host: { ok: true } });
    const regional = call.parse({ name: "r", url: "return 'https://runtime.' + config.region + '.example.com/x'" });
    await expect(runCalls([regional], { config: { region: "evil.example/x?" } }, setup.context())).rejects.toThrow(/one DNS label/);
    expect(setup.requests()).toHaveLength(2);
  });
});

describe("events: match, accumulate and throttle; nodes of events alone", () => {
  const stream = [
    { type: "response.output_text.delta", delta: "Hel" },
    { type: "response.other", delta: "x" },
    { type: "response.output_text.delta", delta: "lo" },
  ];

  it("a match row reads each matching event; accumulate joins the text; live updates are throttled", async () => {
    const server = await setup.fixture([{ method: "POST", path: "/responses", events: stream }]);
    const events = eventsManifest.parse([
      { emit: "text", match: "response.output_text.delta", value: "return response.delta", accumulate: true, throttleChars: 5 },
      { emit: "last", match: "response.output_text.delta", value: "return response.delta" },
    ]);
    const live: Array<[string, unknown]> = [];
    const result = await runStep(
      { run: [call.parse({ name: "go", method: "POST", url: `${server.url}/responses`, body: {}, transport: "sse", terminator: "[DONE]" })], events },
      { config: {}, inputs: {} },
      { ...setup.context(), onOutput: (name, value) => live.push([name, value]) },
    );
    expect(result).toEqual({ ok: true, outputs: { text: "Hello", last: "lo" } });
    expect(live.filter(([name]) => name === "text")).toEqual([["text", "Hel"]]); // "Hello" is only 2 characters more: not yet due
    expect(live.filter(([name]) => name === "last")).toEqual([["last", "Hel"], ["last", "lo"]]);
  });

  it("match may list several types; accumulate without match reads every event and leaves empty values out", async () => {
    const chat = [
      { type: "response.output_text.delta", delta: "Hel", choices: [{ delta: { content: "Hel" } }] },
      { type: "response.part.done", choices: [{ delta: { tool_calls: [{ index: 0 }] } }] },
      { type: "response.output_text.delta", delta: "lo", choices: [{ delta: { content: "lo" } }] },
    ];
    const server = await setup.fixture([{ method: "POST", path: "/chat", events: chat }]);
    const events = eventsManifest.parse([
      { emit: "both", match: ["response.output_text.delta", "response.part.done"], value: "return response.delta || '|'", accumulate: true },
      { emit: "content", value: "return response.choices[0].delta.content", accumulate: true },
    ]);
    const result = await runStep({ run: [call.parse({ name: "go", method: "POST", url: `${server.url}/chat`, body: {}, transport: "sse", terminator: "[DONE]" })], events }, { config: {}, inputs: {} }, setup.context());
    expect(result).toEqual({ ok: true, outputs: { both: "Hel|lo", content: "Hello" } });
  });

  it("a node with no calls routes what arrived (if/else)", async () => {
    const events = eventsManifest.parse([
      { emit: "yes", when: "return !!config.condition", value: "return response" },
      { emit: "no", when: "return !config.condition", value: "return response" },
    ]);
    const result = await runStep({ run: [], events }, { config: { condition: true }, inputs: { signal: { a: 1 } } }, setup.context());
    expect(result).toEqual({ ok: true, outputs: { yes: { signal: { a: 1 } } } });
  });
});
