import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectEntry } from "../../mcp/connect-entry";
import { ConnectionManager } from "../../mcp/connection-manager";
import type { Connector } from "../../mcp/connection-manager/server-link";
import { accountUrl, guestsQuestion, legacyQuestionConnector, type QuestionEffects, startModernQuestionServer } from "../../../testing/mcp/question-servers.fixture";
import { InMemoryServerRegistry, type ServerPolicy } from "../../mcp/registry";
import type { ToolCallRow } from "../../trace/run-events";
import type { RecordedStep } from "../journal/run-journal";
import { chainDocument, durableJournal, runWithToolLayers, type Script, writeToolLayerNodes } from "../../../testing/engine/tool-layers.fixture";
import type { RecordedAnswer } from "./question-desk";

let nodes: Awaited<ReturnType<typeof writeToolLayerNodes>>;
let modern: Awaited<ReturnType<typeof startModernQuestionServer>>;
const modernEffects: QuestionEffects = { answers: [] };
beforeAll(async () => {
  nodes = await writeToolLayerNodes();
  modern = await startModernQuestionServer(modernEffects);
  policy.allowedPrivateOrigins = [new URL(modern.url).origin];
});
afterAll(async () => {
  await nodes.remove();
  await modern.close();
});

const policy: { stdioDisabled: boolean; allowedPrivateOrigins: string[] } = { stdioDisabled: false, allowedPrivateOrigins: [] };

/** TEST DOUBLE: the model calls the one tool, then says what it answered. */
const caller = (tool: string): Script => [{ toolCalls: [{ name: tool, arguments: {} }] }, (request) => ({ text: `tool said: ${request.results[0]?.output}` })];

const callKey = "desk#1/t1/c0";

async function harness(era: "2025" | "2026-07-28", tool: string) {
  const steps = new Map<string, RecordedStep>();
  const rows: ToolCallRow[] = [];
  const effects: QuestionEffects = era === "2025" ? { answers: [] } : modernEffects;
  effects.answers.length = 0;
  const registry = new InMemoryServerRegistry({ policy: () => policy });
  await registry.save(era === "2025" ? { id: "questions", name: "Questions", transport: "stdio", command: "node", args: ["in-memory"] } : { id: "questions", name: "Questions", transport: "http", url: modern.url });
  const connect: Connector = era === "2025" ? legacyQuestionConnector(effects) : (entry, request) => connectEntry(entry, { ...request, policy, answersQuestions: true });
  const document = chainDocument([{ id: "desk", type: "plain-agent", tools: [{ type: "mcp", serverId: "questions", toolNames: [tool] }] }]);
  const run = async () => {
    const manager = new ConnectionManager(registry, { connect, answersQuestions: true, sleep: async () => undefined });
    try {
      return await runWithToolLayers({ runId: `questions-${era}`, document, nodesDir: nodes.nodesDir, scripts: { desk: caller(tool) }, journal: durableJournal(steps, rows), servers: null, overrides: { mcpTools: manager } });
    } finally {
      await manager.closeAll();
    }
  };
  const answer = (key: string, recorded: RecordedAnswer) => steps.set(key, { key, kind: "decision", value: recorded });
  return { steps, rows, effects, run, answer };
}

describe.each(["2025", "2026-07-28"] as const)("questions from tools (MCP elicitation), %s era", (era) => {
  it("form mode: the run waits with the question journalled; the person's values reach the tool, once, with a trace row", async () => {
    const { run, steps, rows, effects, answer } = await harness(era, "book_table");
    const first = await run();
    expect(first.outcome.status).toBe("needs-attention");
    expect(first.outcome.attention).toMatchObject({ key: callKey, tool: "book_table", server: "questions", question: { key: `${callKey}/elicit/0`, question: { mode: "form", message: guestsQuestion.message, requestedSchema: { required: ["guests"] } } } });
    expect(steps.get(`${callKey}/elicit/0/waiting`)?.kind).toBe("waiting");
    expect(effects.answers).toEqual([]);
    // Resumed without an answer: it waits again, on the same question, and the tool is not called again.
    expect((await run()).outcome.attention?.question?.since).toBe(first.outcome.attention?.question?.since);

    answer(`${callKey}/elicit/0`, { answer: { action: "accept", content: { guests: 4, name: "Ana" } }, by: "ana@example.com", at: "2026-01-01T01:00:00.000Z" });
    const resumed = await run();
    expect(resumed.outcome).toMatchObject({ status: "completed", outputs: { result: 'tool said: book_table: accepted {"guests":4,"name":"Ana"}' } });
    expect(effects.answers).toEqual([{ tool: "book_table", action: "accept", content: { guests: 4, name: "Ana" } }]);
    expect(rows.find((row) => row.tool === "question")).toMatchObject({ server: "switchboard", caller: "desk", result: "answered", arguments: { call: "questions/book_table", answer: { action: "accept" }, by: "ana@example.com", question: { message: guestsQuestion.message } } });
    await run();
    expect(effects.answers).toHaveLength(1);
    expect(rows.filter((row) => row.tool === "question")).toHaveLength(1);
  });

  it.each(["decline", "cancel"] as const)("form mode: %s is an answer too, and reaches the tool", async (action) => {
    const { run, effects, answer, rows } = await harness(era, "book_table");
    await run();
    answer(`${callKey}/elicit/0`, { answer: { action }, by: "ana@example.com", at: "2026-01-01T01:00:00.000Z" });
    expect((await run()).outcome).toMatchObject({ status: "completed", outputs: { result: `tool said: book_table: ${action}d` } });
    expect(effects.answers).toEqual([{ tool: "book_table", action }]);
    expect(rows.find((row) => row.tool === "question")?.result).toBe(action === "decline" ? "declined" : "cancelled");
  });

  it("URL mode: the question carries the URL; the person's accept after following it reaches the tool", async () => {
    const { run, effects, answer } = await harness(era, "connect_account");
    const first = await run();
    expect(first.outcome.attention?.question?.question).toMatchObject({ mode: "url", url: accountUrl });
    answer(`${callKey}/elicit/0`, { answer: { action: "accept" }, by: "ana@example.com", at: "2026-01-01T01:00:00.000Z" });
    expect((await run()).outcome).toMatchObject({ status: "completed", outputs: { result: "tool said: connect_account: accepted {}" } });
    expect(effects.answers).toEqual([{ tool: "connect_account", action: "accept" }]);
  });
});

describe("who may be asked", () => {
  it("a client that cannot answer does not declare elicitation: a tool that asks fails the call, and nothing reaches it", async () => {
    const effects: QuestionEffects = { answers: [] };
    const registry = new InMemoryServerRegistry({ policy: () => policy });
    await registry.save({ id: "questions", name: "Questions", transport: "http", url: modern.url });
    const manager = new ConnectionManager(registry, { connect: (entry, request) => connectEntry(entry, { ...request, policy }) });
    try {
      const [tool] = await manager.resolve({ serverId: "questions", toolNames: ["book_table"] }, { nodeId: "desk", nodeType: "plain-agent" });
      const outcome = await tool!.call({}, { callId: "c", nodeRunId: "n", callerNodeId: "desk" });
      expect(outcome.isError).toBe(true);
      expect(effects.answers).toEqual([]);
    } finally {
      await manager.closeAll();
    }
  });
});
