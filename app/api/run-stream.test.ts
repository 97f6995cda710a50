/**
 * GET /api/runs/<id>/stream, called as Next calls it, with a worker in this
 * process and two agents on the offline model (the first calls the unit
 * converter, the second restates the first's answer): while the run runs
 * each model turn's text comes in pieces, once, as the journal records it,
 * tool calls start and end; a finished run gives its recorded text once; a
 * caller without a session or token is refused and an unknown run is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretHash } from "@/lib/security/secret-tokens";
import { PrismaAccounts } from "@/lib/db/accounts";
import { demoWorkflow } from "@/lib/db/demo-workflow";
import { temporaryAppDatabase } from "@/testing/db/temporary-app-database.fixture";
import { runService, startWorkerRuntime, type WorkerRuntime } from "@/lib/runs";

const database = temporaryAppDatabase();
const token = "sbt_viewer_cy_4d7a1c9e2f5b8a0d3e";
let route: typeof import("./runs/[id]/stream/route");
let worker: WorkerRuntime | null = null;

/** The demo's agent, then a second agent that restates its answer. */
const twoAgents = {
  ...demoWorkflow.document,
  nodes: [...demoWorkflow.document.nodes, { id: "restate", type: "offline-agent", position: { x: 640, y: 300 }, config: { maxTurns: 2 } }],
  edges: [
    ...demoWorkflow.document.edges.filter((edge) => edge.id !== "answer-to-end"),
    { id: "answer-to-restate", kind: "signal", source: "agent", sourceHandle: "answer", target: "restate", targetHandle: "prompt" },
    { id: "restate-to-end", kind: "signal", source: "restate", sourceHandle: "answer", target: "end", targetHandle: "result" },
  ],
};

type Chunk = Record<string, unknown> & { type: string };

async function readStream(runId: string, authorization: string | null = `Bearer ${token}`): Promise<{ status: number; chunks: Chunk[] }> {
  const request = new Request(`http://127.0.0.1:3000/api/runs/${runId}/stream`, { headers: authorization ? { authorization } : {} });
  const response = await route.GET(request, { params: Promise.resolve({ id: runId }) });
  if (!response.ok) return { status: response.status, chunks: [] };
  const raw = await response.text();
  const chunks = raw
    .split("\n\n")
    .map((event) => event.replace(/^data: /, "").trim())
    .filter((data) => data !== "" && data !== "[DONE]")
    .map((data) => JSON.parse(data) as Chunk);
  return { status: response.status, chunks };
}

/** Each text part's node and text, in order. */
function textsOf(chunks: Chunk[]): Array<{ nodeId: string; text: string; pieces: number }> {
  const parts = new Map<string, { nodeId: string; text: string; pieces: number }>();
  for (const chunk of chunks) {
    if (chunk.type === "text-start") parts.set(chunk.id as string, { nodeId: (chunk.providerMetadata as { switchboard: { nodeId: string } }).switchboard.nodeId, text: "", pieces: 0 });
    if (chunk.type === "text-delta") {
      const part = parts.get(chunk.id as string)!;
      part.text += chunk.delta as string;
      part.pieces += 1;
    }
  }
  return [...parts.values()];
}

async function recordedTexts(runId: string): Promise<string[]> {
  const turns = await database.client.runStep.findMany({ where: { runId, kind: "model-turn" }, orderBy: { sequence: "asc" } });
  return turns.map((turn) => (JSON.parse(turn.value) as { turn: { text: string } }).turn.text).filter((text) => text !== "");
}

beforeAll(async () => {
  process.env.SWITCHBOARD_OFFLINE_STREAM_MS = "5";
  const accounts = new PrismaAccounts(database.client);
  const user = await accounts.createUser({ email: "cy@example.test", role: "viewer", passwordHash: "not-used" });
  await accounts.createApiToken({ userId: user!.id, name: "cy", tokenHash: secretHash(token), prefix: token.slice(0, 10) });
  route = await import("./runs/[id]/stream/route");
}, 60_000);

afterAll(async () => {
  await worker?.stop({ handBack: false });
});

describe("GET /api/runs/<id>/stream", () => {
  let runId = "";
  let live: Chunk[] = [];

  it("streams a running run: each model turn's text in pieces, once, as recorded, and its tool calls as they start and end", async () => {
    const started = await runService().start({ workflowId: null, document: twoAgents, input: { question: "convert 5 kilometre to mile" }, origin: { kind: "test" } });
    if (!started.ok) throw new Error(started.error);
    runId = started.runId;
    // The stream listens before any worker takes the run: the agents find it followed when they start.
    const reading = readStream(runId);
    worker = startWorkerRuntime({ databaseUrl: database.url, timings: { leaseMs: 10_000, heartbeatMs: 100, pollMs: 50 }, webhook: null });
    const { status, chunks } = await reading;
    live = chunks;
    expect(status).toBe(200);
    const types = chunks.map((chunk) => chunk.type);
    expect(types[0]).toBe("start");
    expect(types.at(-1)).toBe("finish");
    expect(types.filter((type) => type === "tool-input-available")).toHaveLength(1);
    expect(types.filter((type) => type === "tool-output-available")).toHaveLength(1);
    expect(types.indexOf("tool-input-available")).toBeLessThan(types.indexOf("tool-output-available"));

    const texts = textsOf(chunks);
    expect(texts.map((text) => text.nodeId)).toEqual(["agent", "restate"]);
    expect(texts.map((text) => text.text)).toEqual(await recordedTexts(runId));
    expect(texts[1].text).toContain(texts[0].text);
    // Live: the words came as the model wrote them, not as one piece from the journal.
    for (const text of texts) expect(text.pieces).toBeGreaterThan(3);
    expect(types.filter((type) => type === "text-start")).toHaveLength(2);
    expect(types.filter((type) => type === "text-end")).toHaveLength(2);
  }, 30_000);

  it("gives a finished run's recorded text and calls once", async () => {
    const { chunks } = await readStream(runId);
    const texts = textsOf(chunks);
    expect(texts.map((text) => text.text)).toEqual(textsOf(live).map((text) => text.text));
    expect(texts.every((text) => text.pieces === 1)).toBe(true);
    expect(chunks.filter((chunk) => chunk.type === "tool-output-available")).toHaveLength(1);
  }, 30_000);

  it("refuses a caller with no session or token (401) and answers 404 for a run the caller cannot see", async () => {
    expect((await readStream(runId, null)).status).toBe(401);
    expect((await readStream("no-such-run")).status).toBe(404);
    expect((await readStream(runId, "Bearer sbt_not_a_token_0000000000")).status).toBe(401);
  });
});
