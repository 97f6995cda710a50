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

type ScriptedCall = { stepKey: string; nodeRunId?: string | null; server?: string; tool?: string; result: string | null; error: string | null; isError: boolean };

/**
 * TEST DOUBLE: answers the three reads followRunStream makes from a state
 * the test changes. Rows are numbered as the journal numbers them, and a
 * read "after n" gets the rows numbered above n.
 */
class ScriptedRunDatabase {
  run = { status: "running", error: null as string | null, attention: null as string | null };
  turns: Array<{ key: string; value: string; sequence: number }> = [];
  private callRows: Array<ScriptedCall & { sequence: number }> = [];
  private sequence = 0;
  polls = 0;
  /** The reads of the journal's turns: from where (-1: whole). */
  turnReadsAfter: number[] = [];
  onPoll: (poll: number) => void = () => {};

  readonly db = {
    dialect: "sqlite",
    query: async (sql: string, params: unknown[] = []) => {
      if (sql.includes(`FROM "Run"`)) {
        this.onPoll(++this.polls);
        return [this.run];
      }
      const after = Number(params[1]);
      if (sql.includes(`FROM "RunStep"`)) {
        this.turnReadsAfter.push(after);
        return this.turns.filter((row) => row.sequence > after).sort((a, b) => a.sequence - b.sequence);
      }
      if (sql.includes(`FROM "ToolCall"`)) return this.callRows.filter((row) => row.sequence > after).sort((a, b) => a.sequence - b.sequence);
      throw new Error(`unexpected query: ${sql}`);
    },
  } as unknown as SqlDatabase;

  readonly calls = { push: (call: ScriptedCall) => this.callRows.push({ ...call, sequence: (this.sequence += 1) }) };

  /** Records a model turn, numbered next (or at `sequence`: a row numbered before one already written but committed after it). */
  recordTurn(key: string, text: string, toolCalls: Array<{ id: string; name: string; input: unknown }> = [], sequence?: number) {
    this.turns.push({ key, value: JSON.stringify({ turn: { text, toolCalls } }), sequence: sequence ?? (this.sequence += 1) });
  }

  /** Takes a number for a row written later (a turn whose commit comes after rows numbered after it). */
  reserveSequence(): number {
    return (this.sequence += 1);
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

  it("reads the journal from where it left off, and finds a turn committed after rows numbered after it on its next whole read", async () => {
    const state = new ScriptedRunDatabase();
    let late = 0;
    const chunks: UIMessageChunk[] = [];
    let beforeTheEnd = "";
    state.onPoll = (poll) => {
      if (poll === 1) {
        // Two agents of one run: "writer"'s turn takes its number first but is committed after "critic"'s.
        late = state.reserveSequence();
        state.recordTurn("critic#1/t1", "Looks fine.");
      }
      if (poll === 3) state.recordTurn("writer#1/t1", "A draft.", [], late);
      if (poll === 45) {
        beforeTheEnd = textOf(chunks);
        state.run.status = "completed";
      }
    };
    await followRunStream({ db: state.db, runId: "r-order", write: (chunk) => chunks.push(chunk), pollMs: 1 });
    // Found by a whole read while the run still ran, not only by the last one.
    expect(beforeTheEnd).toBe("Looks fine.A draft.");
    expect(textOf(chunks)).toBe("Looks fine.A draft.");
    expect(chunks.filter((chunk) => chunk.type === "text-start")).toHaveLength(2);
    // Most reads start after the last row read; the whole journal is read now and then, and at the end.
    expect(state.turnReadsAfter.filter((after) => after > 0).length).toBeGreaterThan(state.turnReadsAfter.length / 2);
    expect(state.turnReadsAfter.filter((after) => after === -1).length).toBeGreaterThanOrEqual(2);
  });

  it("ends a failed run with its error", async () => {
    const state = new ScriptedRunDatabase();
    state.onPoll = () => {
      state.run = { status: "failed", error: "the model API answered 401", attention: null };
    };
    expect(await follow(state, "r4")).toEqual([{ type: "error", errorText: "the model API answered 401" }]);
  });
});
