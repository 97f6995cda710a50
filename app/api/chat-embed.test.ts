/**
 * A chat widget calling the chat API, route handlers called as Next calls
 * them, with a worker in this process and the demo workflow (the offline
 * model): from an allowed origin a message streams an answer; from another
 * origin it is 403 naming it; a wrong or rotated token is 401; the token on
 * another workflow is 403; over the visitor's limit is 429 with Retry-After;
 * a visitor sees only their own threads.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorkflow } from "@/lib/db/demo-workflow";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { startWorkerRuntime, type WorkerRuntime } from "@/lib/runs";
import { frameAncestors, parseWidgetOrigins } from "@/lib/embed/widget-origins";

const database = temporaryAppDatabase();
const app = "http://127.0.0.1:3000";
const shop = "http://127.0.0.1:4811";
const elsewhere = "http://127.0.0.1:4812";
let chat: typeof import("./workflows/[id]/chat/route");
let widgets: typeof import("@/lib/db/chat-widgets");
let worker: WorkerRuntime;
let token = "";
let widgetId = "";

const params = (id = "demo") => ({ params: Promise.resolve({ id }) });
function request(method: string, options: { token?: string; origin?: string | null; parent?: string; visitor?: string; workflow?: string; body?: unknown }) {
  const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${options.token ?? token}` };
  if (options.origin !== null) headers.origin = options.origin ?? shop;
  if (options.parent) headers["x-embed-parent"] = options.parent;
  if (options.visitor !== "") headers["x-visitor-id"] = options.visitor ?? "visitor-aaaa-1";
  return new Request(`${app}/api/workflows/${options.workflow ?? "demo"}/chat`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
}

async function send(options: Parameters<typeof request>[1]) {
  const response = await chat.POST(request("POST", options), params(options.workflow));
  if (!response.ok) return { response, text: "", types: [] as string[], error: ((await response.json()) as { error: string; field?: string }) };
  const chunks = (await response.text())
    .split("\n\n")
    .map((event) => event.replace(/^data: /, "").trim())
    .filter((data) => data !== "" && data !== "[DONE]")
    .map((data) => JSON.parse(data) as { type: string; delta?: string });
  const text = chunks
    .filter((chunk) => chunk.type === "text-delta")
    .map((chunk) => chunk.delta)
    .join("");
  return { response, text, types: chunks.map((chunk) => chunk.type), error: null };
}

beforeAll(async () => {
  process.env.SWITCHBOARD_OFFLINE_STREAM_MS = "5";
  await database.client.workflow.create({ data: { id: "demo", name: demoWorkflow.name, document: JSON.stringify(demoWorkflow.document) } });
  await database.client.workflow.create({ data: { id: "other", name: "Other", document: JSON.stringify(demoWorkflow.document) } });
  chat = await import("./workflows/[id]/chat/route");
  widgets = await import("@/lib/db/chat-widgets");
  const created = await widgets.createChatWidget({ workflowId: "demo", name: "Shop", origins: [shop], perMinute: 3, createdBy: "ada@example.test" });
  token = created.token;
  widgetId = created.widget.id;
  worker = startWorkerRuntime({ databaseUrl: database.url, timings: { leaseMs: 10_000, heartbeatMs: 100, pollMs: 50 }, webhook: null });
}, 60_000);

afterAll(async () => {
  await worker?.stop({ handBack: false });
});

describe("a chat widget on the chat API", () => {
  it("streams an answer to a visitor on an allowed origin, in a thread that belongs to the widget", async () => {
    const first = await send({ body: { message: "convert 5 kilometre to mile" } });
    expect(first.response.status).toBe(200);
    expect(first.text).toMatch(/^\(offline model\) .*mile/);
    const threadId = first.response.headers.get("x-chat-thread-id")!;
    const row = await database.client.chatThread.findUniqueOrThrow({ where: { id: threadId } });
    expect(row).toMatchObject({ widgetId, ownerId: `visitor:${widgetId}:visitor-aaaa-1` });
    expect((await widgets.listWidgetThreads(widgetId)).map((thread) => thread.id)).toEqual([threadId]);
    // The agent called its conversion tool, but a visitor gets the answer only: no tool call, argument or result.
    expect(await database.client.toolCall.count({ where: { run: { threadId } } })).toBeGreaterThan(0);
    expect(first.types.filter((type) => type.startsWith("tool-"))).toEqual([]);
    // One turn at a time: while the thread's last turn has not ended, the next message is 409.
    await database.client.run.updateMany({ where: { threadId }, data: { status: "running" } });
    const early = await send({ body: { threadId, message: "and 6 kilometre?" } });
    await database.client.run.updateMany({ where: { threadId }, data: { status: "completed" } });
    expect(early.response.status).toBe(409);
    expect(early.error).toMatchObject({ field: "threadId", error: expect.stringContaining("has not ended yet") });
  }, 30_000);

  it("refuses a visitor's body over 64 KB before reading it as JSON (413)", async () => {
    const large = await send({ visitor: "visitor-large-1", body: { message: "x".repeat(70_000) } });
    expect(large.response.status).toBe(413);
    expect(large.error?.error).toContain("the limit is 65536 bytes");
  });

  it("answers the widget's frame (this app's origin) when the page it is shown on is allowed, and refuses it on another page", async () => {
    const framed = await send({ origin: app, parent: shop, visitor: "visitor-frame-1", body: { message: "convert 1 kilometre to mile" } });
    expect(framed.response.status).toBe(200);
    expect(framed.text).toContain("mile");
    const refused = await send({ origin: app, parent: elsewhere, visitor: "visitor-frame-2", body: { message: "hello" } });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ error: `This chat widget may not be used from the page ${elsewhere}: it is allowed on ${shop}.`, field: "origin" });
  }, 30_000);

  it("refuses another origin with 403 naming it, and a request from no web page", async () => {
    const other = await send({ origin: elsewhere, body: { message: "hello" } });
    expect(other.response.status).toBe(403);
    expect(other.error?.error).toContain(`the page ${elsewhere}`);
    const none = await send({ origin: null, body: { message: "hello" } });
    expect(none.response.status).toBe(403);
    expect(none.error?.error).toContain("without an Origin header");
  });

  it("refuses a wrong token and a rotated one with 401; the new token works", async () => {
    expect((await send({ token: "sbw_not-a-real-token-at-all-0000000000", body: { message: "hello" } })).response.status).toBe(401);
    const rotated = await widgets.rotateChatWidgetToken(widgetId);
    const old = await send({ visitor: "visitor-rotate", body: { message: "hello" } });
    expect(old.response.status).toBe(401);
    expect(old.error?.error).toContain("rotated");
    token = rotated.token;
    expect((await send({ visitor: "visitor-rotate", body: { message: "convert 3 kilometre to mile" } })).response.status).toBe(200);
  }, 30_000);

  it("refuses this widget's token on another workflow (403), and when the widget is off", async () => {
    const other = await send({ workflow: "other", body: { message: "hello" } });
    expect(other.response.status).toBe(403);
    expect(other.error?.error).toBe(`This widget's token may only chat with its own workflow, not "other".`);
    await widgets.updateChatWidget(widgetId, { enabled: false });
    const off = await send({ visitor: "visitor-off", body: { message: "hello" } });
    expect(off.response.status).toBe(403);
    expect(off.error?.error).toContain("turned off");
    await widgets.updateChatWidget(widgetId, { enabled: true });
  });

  it("refuses a visitor over the widget's limit with 429, Retry-After and a message to show", async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof send>> | null = null;
    for (let index = 0; index < 4; index++) {
      last = await send({ visitor: "visitor-busy-1", body: { message: `convert ${index + 1} kilometre to mile` } });
      statuses.push(last.response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(last!.response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.error?.error).toMatch(/^You have sent more than 3 messages in a minute; wait \d+ seconds and send again\.$/);
    // Another visitor is not held back.
    expect((await send({ visitor: "visitor-busy-2", body: { message: "convert 9 kilometre to mile" } })).response.status).toBe(200);
  }, 60_000);

  it("refuses any visitor past the widget's cap across all visitors with 429, Retry-After and the limit named", async () => {
    const busy = await widgets.createChatWidget({ workflowId: "demo", name: "Busy", origins: [shop], perMinute: 1, overallPerMinute: 2, createdBy: "ada@example.test" });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof send>> | null = null;
    for (const visitor of ["visitor-cap-1", "visitor-cap-2", "visitor-cap-3"]) {
      last = await send({ token: busy.token, visitor, body: { message: "convert 2 kilometre to mile" } });
      statuses.push(last.response.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(last!.response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.error?.error).toMatch(/^This chat is busy: its visitors together have sent more than its limit of 2 messages a minute; wait \d+ seconds and send again\.$/);
  }, 60_000);

  it("shows a visitor only their own threads; another visitor's thread is 404; a missing visitor id is 400", async () => {
    const mine = (await (await chat.GET(request("GET", { visitor: "visitor-aaaa-1" }), params())).json()) as { threads: Array<{ id: string }> };
    expect(mine.threads).toHaveLength(1);
    const theirs = (await (await chat.GET(request("GET", { visitor: "visitor-zzzz-9" }), params())).json()) as { threads: unknown[] };
    expect(theirs.threads).toEqual([]);
    const intruder = await send({ visitor: "visitor-zzzz-9", body: { threadId: mine.threads[0].id, message: "hello" } });
    expect(intruder.response.status).toBe(404);
    const anonymous = await send({ visitor: "", body: { message: "hello" } });
    expect(anonymous.response.status).toBe(400);
    expect(anonymous.error?.field).toBe("visitorId");
    // The playground's unsaved document is an editor's: never a widget's.
    expect((await send({ visitor: "visitor-doc", body: { message: "hello", document: demoWorkflow.document } })).response.status).toBe(403);
  });
});

describe("a visitor reading their thread again (the frame reloaded)", () => {
  /** A GET from the widget's frame: same-origin, so the browser sends no Origin, only Sec-Fetch-Site. */
  function frameRead(path: string, options: { visitor: string; site?: string; parent?: string }) {
    return new Request(`${app}/api/workflows/demo/chat${path}`, {
      headers: { authorization: `Bearer ${token}`, "x-visitor-id": options.visitor, "x-embed-parent": options.parent ?? shop, ...(options.site ? { "sec-fetch-site": options.site } : {}) },
    });
  }
  const threadParams = (threadId: string) => ({ params: Promise.resolve({ id: "demo", threadId }) });

  it("lists the visitor's latest thread and reads its turns, from the frame; another visitor gets 404; PATCH and DELETE know no widget token", async () => {
    const thread = await import("./workflows/[id]/chat/[threadId]/route");
    const first = await send({ visitor: "visitor-back-1", body: { message: "convert 4 kilometre to mile" } });
    const threadId = first.response.headers.get("x-chat-thread-id")!;
    await send({ visitor: "visitor-back-1", body: { threadId, message: "convert 8 kilometre to mile" } });

    const listed = await chat.GET(frameRead("", { visitor: "visitor-back-1", site: "same-origin" }), params());
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { threads: Array<{ id: string }> }).threads.map((item) => item.id)).toEqual([threadId]);
    const read = await thread.GET(frameRead(`/${threadId}`, { visitor: "visitor-back-1", site: "same-origin" }), threadParams(threadId));
    expect(read.status).toBe(200);
    const { turns } = (await read.json()) as { turns: Array<{ message: string; answer: string; status: string }> };
    expect(turns.map((turn) => [turn.message, turn.status])).toEqual([
      ["convert 4 kilometre to mile", "completed"],
      ["convert 8 kilometre to mile", "completed"],
    ]);
    expect(turns[1].answer).toContain("mile");

    // Another visitor of the same widget, a page not allowed, and a same-origin claim missing: refused.
    expect((await thread.GET(frameRead(`/${threadId}`, { visitor: "visitor-back-2", site: "same-origin" }), threadParams(threadId))).status).toBe(404);
    expect((await thread.GET(frameRead(`/${threadId}`, { visitor: "visitor-back-1", site: "same-origin", parent: elsewhere }), threadParams(threadId))).status).toBe(403);
    expect((await thread.GET(frameRead(`/${threadId}`, { visitor: "visitor-back-1", site: "cross-site" }), threadParams(threadId))).status).toBe(403);
    expect((await thread.GET(frameRead(`/${threadId}`, { visitor: "visitor-back-1" }), threadParams(threadId))).status).toBe(403);
    const patch = new Request(`${app}/api/workflows/demo/chat/${threadId}`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "x-visitor-id": "visitor-back-1" }, body: JSON.stringify({ title: "mine" }) });
    expect((await thread.PATCH(patch, threadParams(threadId))).status).toBe(401);
  }, 60_000);

  it("tells a visitor a failed turn in general words, never its error", async () => {
    const thread = await import("./workflows/[id]/chat/[threadId]/route");
    const first = await send({ visitor: "visitor-fail-1", body: { message: "convert 6 kilometre to mile" } });
    const threadId = first.response.headers.get("x-chat-thread-id")!;
    await database.client.run.updateMany({ where: { threadId }, data: { status: "failed", error: "tool convert at http://10.0.0.5 refused" } });
    const { turns } = (await (await thread.GET(frameRead(`/${threadId}`, { visitor: "visitor-fail-1", site: "same-origin" }), threadParams(threadId))).json()) as { turns: Array<{ error: string | null }> };
    expect(turns[0].error).toBe("The answer could not be finished: the run failed.");
  }, 30_000);
});

describe("rejoining a turn whose stream broke", () => {
  const threadParams = (threadId: string) => ({ params: Promise.resolve({ id: "demo", threadId }) });
  /** The chunks of a UI message stream, parsed. */
  async function chunksOf(response: Response) {
    return (await response.text())
      .split("\n\n")
      .map((event) => event.replace(/^data: /, "").trim())
      .filter((data) => data !== "" && data !== "[DONE]")
      .map((data) => JSON.parse(data) as { type: string; id?: string; delta?: string; messageId?: string });
  }

  it("follows the thread's running turn to its end from the journal, each part once, then answers 204", async () => {
    const rejoin = await import("./workflows/[id]/chat/[threadId]/stream/route");
    // Slower words, so the turn is still going when the page rejoins (the stream it was sent on is dropped unread).
    process.env.SWITCHBOARD_OFFLINE_STREAM_MS = "60";
    try {
      const sent = await chat.POST(request("POST", { visitor: "visitor-rejoin-1", body: { message: "convert 7 kilometre to mile" } }), params());
      expect(sent.status).toBe(200);
      const threadId = sent.headers.get("x-chat-thread-id")!;
      const runId = sent.headers.get("x-run-id")!;
      await sent.body?.cancel();
      expect((await database.client.run.findUniqueOrThrow({ where: { id: runId } })).status).not.toBe("completed");

      const rejoined = await rejoin.GET(request("GET", { visitor: "visitor-rejoin-1" }), threadParams(threadId));
      expect(rejoined.status).toBe(200);
      expect(rejoined.headers.get("x-run-id")).toBe(runId);
      const chunks = await chunksOf(rejoined);
      expect(chunks[0]).toMatchObject({ type: "start", messageId: `run-${runId}` });
      expect(chunks.at(-1)).toMatchObject({ type: "finish" });
      expect(chunks.filter((chunk) => chunk.type === "error")).toEqual([]);
      // Each model turn's text starts once, and the text written is the recorded answer, once.
      const starts = chunks.filter((chunk) => chunk.type === "text-start").map((chunk) => chunk.id);
      expect(new Set(starts).size).toBe(starts.length);
      const text = chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => chunk.delta).join("");
      const run = await database.client.run.findUniqueOrThrow({ where: { id: runId } });
      expect(run.status).toBe("completed");
      expect(text).toBe(JSON.parse(run.outputs).result);
      expect(chunks.filter((chunk) => chunk.type.startsWith("tool-"))).toEqual([]);

      // Every turn has ended: nothing to rejoin.
      expect((await rejoin.GET(request("GET", { visitor: "visitor-rejoin-1" }), threadParams(threadId))).status).toBe(204);
      // Another visitor cannot follow it.
      expect((await rejoin.GET(request("GET", { visitor: "visitor-rejoin-2" }), threadParams(threadId))).status).toBe(404);
    } finally {
      process.env.SWITCHBOARD_OFFLINE_STREAM_MS = "5";
    }
  }, 60_000);
});

describe("a widget's origins", () => {
  it("takes exact origins and names what is wrong with the others", () => {
    expect(parseWidgetOrigins("https://shop.example\nhttp://127.0.0.1:8080, https://shop.example")).toEqual({ ok: true, origins: ["https://shop.example", "http://127.0.0.1:8080"] });
    expect(parseWidgetOrigins("")).toMatchObject({ ok: false, field: "origins" });
    expect(parseWidgetOrigins("https://*.example")).toMatchObject({ ok: false, error: 'origins: "https://*.example" has a wildcard; list each origin exactly (scheme://host[:port]).' });
    expect(parseWidgetOrigins("https://shop.example/path")).toMatchObject({ ok: false, error: expect.stringContaining("has a path") });
    expect(parseWidgetOrigins("shop.example")).toMatchObject({ ok: false, error: expect.stringContaining("is not an origin") });
    expect(parseWidgetOrigins("ftp://shop.example")).toMatchObject({ ok: false, error: expect.stringContaining("uses ftp") });
    // An origin goes into the frame's CSP header: nothing that could end the directive or add another.
    expect(parseWidgetOrigins("https://shop.example;sandbox")).toMatchObject({ ok: false, error: expect.stringContaining("cannot have") });
    expect(parseWidgetOrigins("https://shop.example'")).toMatchObject({ ok: false });
    expect(parseWidgetOrigins("http://[::1]:8080")).toEqual({ ok: true, origins: ["http://[::1]:8080"] });
    expect(frameAncestors(["https://a.example", "http://127.0.0.1:8080"])).toBe("frame-ancestors https://a.example http://127.0.0.1:8080");
    expect(frameAncestors([])).toBe("frame-ancestors 'none'");
  });
});
