/**
 * The chat API, route handlers called as Next calls them, with a worker in
 * this process and the demo workflow (the offline model): a turn answers a
 * UI message stream whose text comes in pieces, the next turn reads the
 * thread's history, threads are listed, renamed and deleted by their owner
 * only, another person's thread is 404, and a message over the limit is 400
 * naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxChatMessageChars } from "@/lib/api/chat-api";
import { secretHash } from "@/lib/security/secret-tokens";
import { PrismaAccounts } from "@/lib/db/accounts";
import { demoWorkflow } from "@/lib/db/demo-workflow";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { startWorkerRuntime, type WorkerRuntime } from "@/lib/runs";

const database = temporaryAppDatabase();
const tokens = { ada: "sbt_runner_ada_7f3a9c2e5b8d1f4a6c", bob: "sbt_runner_bob_2b5e8a1d4f7c0e3a6b" };
let chat: typeof import("./workflows/[id]/chat/route");
let thread: typeof import("./workflows/[id]/chat/[threadId]/route");
let worker: WorkerRuntime;

const params = (threadId?: string) => ({ params: Promise.resolve({ id: "demo", threadId: threadId ?? "" }) });
const request = (path: string, method: string, token: string, body?: unknown) =>
  new Request(`http://127.0.0.1:3000${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** Sends a message and reads the whole stream: its chunks as parsed JSON. */
async function send(body: unknown, token = tokens.ada) {
  const response = await chat.POST(request("/api/workflows/demo/chat", "POST", token, body), params());
  if (!response.ok) return { response, chunks: [] as Array<Record<string, unknown>>, text: "" };
  const raw = await response.text();
  const chunks = raw
    .split("\n\n")
    .map((event) => event.replace(/^data: /, "").trim())
    .filter((data) => data !== "" && data !== "[DONE]")
    .map((data) => JSON.parse(data) as Record<string, unknown>);
  const text = chunks.filter((chunk) => chunk.type === "text-delta").map((chunk) => chunk.delta).join("");
  return { response, chunks, text };
}

beforeAll(async () => {
  process.env.SWITCHBOARD_OFFLINE_STREAM_MS = "5";
  const accounts = new PrismaAccounts(database.client);
  for (const name of ["ada", "bob"] as const) {
    const user = await accounts.createUser({ email: `${name}@example.test`, role: "runner", passwordHash: "not-used" });
    await accounts.createApiToken({ userId: user!.id, name, tokenHash: secretHash(tokens[name]), prefix: tokens[name].slice(0, 10) });
  }
  await database.client.workflow.create({ data: { id: "demo", name: demoWorkflow.name, document: JSON.stringify(demoWorkflow.document) } });
  chat = await import("./workflows/[id]/chat/route");
  thread = await import("./workflows/[id]/chat/[threadId]/route");
  worker = startWorkerRuntime({ databaseUrl: database.url, timings: { leaseMs: 10_000, heartbeatMs: 100, pollMs: 50 }, webhook: null });
}, 60_000);

afterAll(async () => {
  await worker?.stop({ handBack: false });
});

describe("the chat API", () => {
  let threadId = "";

  it("answers a turn as a UI message stream: tool parts, then the text in pieces, once", async () => {
    const first = await send({ message: "convert 5 kilometre to mile" });
    expect(first.response.status).toBe(200);
    threadId = first.response.headers.get("x-chat-thread-id")!;
    expect(threadId).toBeTruthy();
    const types = first.chunks.map((chunk) => chunk.type);
    expect(types[0]).toBe("start");
    expect(types).toContain("tool-input-available");
    expect(types).toContain("tool-output-available");
    expect(types.filter((type) => type === "text-delta").length).toBeGreaterThan(3);
    expect(types.filter((type) => type === "text-start")).toHaveLength(1);
    expect(types.filter((type) => type === "text-end")).toHaveLength(1);
    expect(types.at(-1)).toBe("finish");
    expect(first.text).toMatch(/^\(offline model\) .*answered: .*mile/);
  }, 30_000);

  it("gives the next turn the thread's history: the third turn quotes the first", async () => {
    await send({ threadId, message: "convert 2 kilogram to pound" });
    const third = await send({ threadId, message: "Which distance did I ask about first?" });
    expect(third.text).toContain('Earlier you said: "convert 5 kilometre to mile"');
    const read = await thread.GET(request(`/api/workflows/demo/chat/${threadId}`, "GET", tokens.ada), params(threadId));
    const body = (await read.json()) as { turns: Array<{ turn: number; message: string; answer: string; status: string }> };
    expect(body.turns.map((turn) => [turn.turn, turn.message, turn.status])).toEqual([
      [1, "convert 5 kilometre to mile", "completed"],
      [2, "convert 2 kilogram to pound", "completed"],
      [3, "Which distance did I ask about first?", "completed"],
    ]);
    expect(body.turns[2].answer).toBe(third.text);
  }, 60_000);

  it("refuses a message over the limit with 400 naming it, and an empty one", async () => {
    const long = await send({ message: "x".repeat(maxChatMessageChars + 1) });
    expect(long.response.status).toBe(400);
    expect(await long.response.json()).toEqual({ error: `message: message is longer than the limit of ${maxChatMessageChars} characters.`, field: "message" });
    const empty = await send({ message: "  " });
    expect(empty.response.status).toBe(400);
  });

  it("hides a thread from another person (404) until its owner shares it, and lets only the owner rename or delete it", async () => {
    expect((await thread.GET(request(`/api/workflows/demo/chat/${threadId}`, "GET", tokens.bob), params(threadId))).status).toBe(404);
    expect((await send({ threadId, message: "hello" }, tokens.bob)).response.status).toBe(404);
    expect((await thread.DELETE(request(`/api/workflows/demo/chat/${threadId}`, "DELETE", tokens.bob), params(threadId))).status).toBe(404);
    const bobList = (await (await chat.GET(request("/api/workflows/demo/chat", "GET", tokens.bob), params())).json()) as { threads: unknown[] };
    expect(bobList.threads).toEqual([]);

    const shared = await thread.PATCH(request(`/api/workflows/demo/chat/${threadId}`, "PATCH", tokens.ada, { shared: true, title: "Units" }), params(threadId));
    expect(((await shared.json()) as { thread: { title: string; shared: boolean } }).thread).toMatchObject({ title: "Units", shared: true });
    expect((await thread.GET(request(`/api/workflows/demo/chat/${threadId}`, "GET", tokens.bob), params(threadId))).status).toBe(200);
    expect((await thread.PATCH(request(`/api/workflows/demo/chat/${threadId}`, "PATCH", tokens.bob, { title: "Mine" }), params(threadId))).status).toBe(403);

    const badTitle = await thread.PATCH(request(`/api/workflows/demo/chat/${threadId}`, "PATCH", tokens.ada, { title: "" }), params(threadId));
    expect(badTitle.status).toBe(400);
    expect(((await badTitle.json()) as { field: string }).field).toBe("title");

    expect((await thread.DELETE(request(`/api/workflows/demo/chat/${threadId}`, "DELETE", tokens.ada), params(threadId))).status).toBe(204);
    expect((await thread.GET(request(`/api/workflows/demo/chat/${threadId}`, "GET", tokens.ada), params(threadId))).status).toBe(404);
    // The turns' runs stay, unlinked.
    expect(await database.client.run.count({ where: { originKind: "chat", threadId: null } })).toBe(3);
  }, 30_000);
});
