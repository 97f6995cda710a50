/**
 * followRunStream against a TEST DOUBLE of the database (a run's row, its
 * recorded model turns and tool calls, changed between polls) and the run
 * text feed: text the feed gave is not written again when the journal's
 * turn arrives, a turn the feed never saw comes whole from the journal, tool
 * calls start and end once, a held call is an approval request, and a
 * failed run ends with its error.
 */
import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import type { SqlDatabase } from "../db/sql/sql-database";
import { publishRunText, stableId } from "../run-model";
import { followRunStream } from "./run-stream";

/** TEST DOUBLE: answers the three reads followRunStream makes from a state the test changes. */
class ScriptedRunDatabase {
  run = { status: "running", error: null as string | null, attention: null as string | null };
  turns: Array<{ key: string; value: string }> = [];
  calls: Array<{ stepKey: string; nodeRunId?: string | null; server?: string; tool?: string; result: string | null; error: string | null; isError: boolean }> = [];
  polls = 0;
  onPoll: (poll: number) => void = () => {};

  readonly db = {
    dialect: "sqlite",
    query: async (sql: string) => {
      if (sql.includes(`FROM "Run"`)) {
        this.onPoll(++this.polls);
        return [this.run];
      }
      if (sql.includes(`FROM "RunStep"`)) return this.turns;
      if (sql.includes(`FROM "ToolCall"`)) return this.calls;
      throw new Error(`unexpected query: ${sql}`);
    },
  } as unknown as SqlDatabase;

  recordTurn(key: string, text: string, toolCalls: Array<{ id: string; name: string; input: unknown }> = []) {
    this.turns.push({ key, value: JSON.stringify({ turn: { text, toolCalls } }) });
  }
}

async function follow(state: ScriptedRunDatabase, runId: string): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  await followRunStream({ db: state.db, runId, write: (chunk) => chunks.push(chunk), pollMs: 1 });
  return chunks;
}

const textOf = (chunks: UIMessageChunk[]) => chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join("");

describe("followRunStream", () => {
  it("writes the feed's text once and only the rest from the journal", async () => {
    const state = new ScriptedRunDatabase();
    state.onPoll = (poll) => {
      if (poll === 1) {
        publishRunText({ runId: "r1", nodeId: "agent", turnKey: "agent#1/t1", text: "Hello", offset: 0 });
        publishRunText({ runId: "r1", nodeId: "agent", turnKey: "agent#1/t1", text: " there", offset: 5 });
      }
      if (poll === 3) {
        state.recordTurn("agent#1/t1", "Hello there, friend.");
        state.run.status = "completed";
      }
    };
    const chunks = await follow(state, "r1");
    expect(textOf(chunks)).toBe("Hello there, friend.");
    expect(chunks.filter((chunk) => chunk.type === "text-start")).toHaveLength(1);
    expect(chunks.filter((chunk) => chunk.type === "text-end")).toHaveLength(1);
    expect(chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : []))).toEqual(["Hello", " there", ", friend."]);
  });

  it("leaves to the journal a turn whose first pieces it did not hear (it began following mid-turn), so the answer is whole, once", async () => {
    const state = new ScriptedRunDatabase();
    state.onPoll = (poll) => {
      if (poll === 1) {
        // "Hello" went out before this follower listened; it hears the rest.
        publishRunText({ runId: "r-late", nodeId: "agent", turnKey: "agent#1/t1", text: " there", offset: 5 });
        publishRunText({ runId: "r-late", nodeId: "agent", turnKey: "agent#1/t1", text: ", friend.", offset: 11 });
      }
      if (poll === 3) {
        state.recordTurn("agent#1/t1", "Hello there, friend.");
        state.run.status = "completed";
      }
    };
    const chunks = await follow(state, "r-late");
    expect(textOf(chunks)).toBe("Hello there, friend.");
    expect(chunks.filter((chunk) => chunk.type === "text-start")).toHaveLength(1);
  });

  it("gives a turn the feed never saw (a resumed run, another process) whole from the journal, and tool calls once each", async () => {
    const state = new ScriptedRunDatabase();
    state.onPoll = (poll) => {
      if (poll === 1) state.recordTurn("agent#1/t1", "", [{ id: "call_1", name: "convert", input: { value: 5 } }]);
      if (poll === 2) state.calls.push({ stepKey: "agent#1/t1/c0", nodeRunId: "nr-agent", server: "units", tool: "convert", result: JSON.stringify({ value: 3.1 }), error: null, isError: false });
      if (poll === 4) {
        state.recordTurn("agent#1/t2", "It is 3.1 mile.");
        state.run.status = "completed";
      }
    };
    const chunks = await follow(state, "r2");
    expect(chunks.map((chunk) => chunk.type)).toEqual(["tool-input-available", "tool-output-available", "text-start", "text-delta", "text-end"]);
    expect(chunks[0]).toMatchObject({ toolCallId: "call_1", toolName: "convert", input: { value: 5 } });
    // Where the call sits, so the bubble can show the tool's MCP App as the trace row does.
    expect(chunks[1]).toMatchObject({ toolCallId: "call_1", output: { value: 3.1 }, toolMetadata: { runId: "r2", nodeRunId: "nr-agent", server: "units", tool: "convert" } });
    expect(textOf(chunks)).toBe("It is 3.1 mile.");
  });

  it("asks for approval of a held call once, and goes on when the run does", async () => {
    const state = new ScriptedRunDatabase();
    state.onPoll = (poll) => {
      if (poll === 1) {
        state.recordTurn("agent#1/t1", "", [{ id: "call_1", name: "send_email", input: {} }]);
        state.run = { status: "needs-attention", error: null, attention: JSON.stringify({ key: "agent#1/t1/c0", message: "send_email waits for approval", approval: { since: "now" } }) };
      }
      if (poll === 5) state.run = { status: "running", error: null, attention: null };
      if (poll === 6) state.calls.push({ stepKey: "agent#1/t1/c0", result: null, error: "denied: no", isError: true });
      if (poll === 7) state.run.status = "completed";
    };
    const chunks = await follow(state, "r3");
    const approvals = chunks.filter((chunk) => chunk.type === "tool-approval-request");
    expect(approvals).toEqual([{ type: "tool-approval-request", toolCallId: "call_1", approvalId: stableId("r3", "agent#1/t1/c0"), reason: "send_email waits for approval" }]);
    expect(chunks.at(-1)).toMatchObject({ type: "tool-output-error", toolCallId: "call_1", errorText: "denied: no" });
  });

  it("gives a widget's visitor (answer only) no tool call, nor where one sits", async () => {
    const state = new ScriptedRunDatabase();
    state.onPoll = (poll) => {
      if (poll === 1) state.recordTurn("agent#1/t1", "", [{ id: "call_1", name: "convert", input: { value: 5 } }]);
      if (poll === 2) state.calls.push({ stepKey: "agent#1/t1/c0", nodeRunId: "nr-agent", server: "units", tool: "convert", result: "3.1", error: null, isError: false });
      if (poll === 3) {
        state.recordTurn("agent#1/t2", "It is 3.1 mile.");
        state.run.status = "completed";
      }
    };
    const chunks: UIMessageChunk[] = [];
    await followRunStream({ db: state.db, runId: "r5", write: (chunk) => chunks.push(chunk), pollMs: 1, answerOnly: true });
    expect(chunks.map((chunk) => chunk.type)).toEqual(["text-start", "text-delta", "text-end"]);
    expect(JSON.stringify(chunks)).not.toContain("nr-agent");
  });

  it("ends a failed run with its error", async () => {
    const state = new ScriptedRunDatabase();
    state.onPoll = () => {
      state.run = { status: "failed", error: "the model API answered 401", attention: null };
    };
    expect(await follow(state, "r4")).toEqual([{ type: "error", errorText: "the model API answered 401" }]);
  });
});
