import type { UIMessageChunk } from "ai";
import type { AttentionRequest } from "../trace";
import type { SqlDatabase } from "../db";
import { followRunText, nodeIdOfTurn, type RunTextPlace, stableId } from "../run-model";

/** What a chat's stream tells the page besides the parts: the turn's run and thread. */
export interface ChatTurnMetadata {
  threadId: string;
  runId: string;
}

export interface FollowRunStreamOptions {
  db: SqlDatabase;
  runId: string;
  write(chunk: UIMessageChunk): void;
  signal?: AbortSignal;
  /** How often the journal is read (default 100 ms). */
  pollMs?: number;
  /** How long a turn waiting for a person keeps the stream open (default 10 min); the page reads the thread again later. */
  waitMs?: number;
  /**
   * A visitor of a published widget: only the answer's text. No tool call,
   * argument, result or approval reaches them, and a failed run says so in
   * general words, not its error (which may name tools and hosts).
   */
  answerOnly?: boolean;
}

/** What a turn that failed or was cancelled says in general words (to a widget's visitor: the error may name tools and hosts). */
export function unfinishedAnswerText(status: "failed" | "cancelled"): string {
  return `The answer could not be finished: the run ${status === "failed" ? "failed" : "was cancelled"}.`;
}

/**
 * Where a chat's tool call sits (the part's `toolMetadata`): its run, node
 * run, registry server and tool, so the bubble can show the tool's MCP App
 * as the trace row does. Never sent to a widget's visitor (`answerOnly`).
 */
export interface ChatToolPlace {
  [key: string]: string;
  runId: string;
  nodeRunId: string;
  server: string;
  tool: string;
}

interface RecordedCall {
  stepKey: string | null;
  nodeRunId: string | null;
  server: string;
  tool: string;
  result: string | null;
  error: string | null;
  isError: unknown;
}

function callPlace(runId: string, call: RecordedCall): ChatToolPlace | undefined {
  return call.nodeRunId ? { runId, nodeRunId: call.nodeRunId, server: call.server, tool: call.tool } : undefined;
}

/** Every how many reads of the journal a follower reads it whole rather than from where it left off. */
const sweepEvery = 20;

type RecordedTurn = { turn: { text: string; toolCalls: Array<{ id: string; name: string; input: unknown }> } };

/**
 * Follows one run (a chat turn's, or any run: the run page, the canvas) and
 * writes it as a UI message stream: each agent's text token by token (a
 * text part per model turn, its node and turn in `providerMetadata`), each tool call when it starts and when it
 * ends, a call held for approval as an approval request, then the end.
 *
 * Two sources, one record. In this process the run text feed gives the
 * text as the model writes it; the journal (the model turns and tool calls
 * recorded, in any process) is the record. Text is written once per model
 * turn: what the feed gave is remembered, and when the journal's turn
 * arrives only the rest of its text is written. A turn the feed never saw
 * (a worker in another process, a run resumed after a crash) comes whole
 * from the journal. Nothing is written twice.
 */
export async function followRunStream(options: FollowRunStreamOptions): Promise<void> {
  const { db, runId, write } = options;
  const shown = new Map<string, string>();
  const closed = new Set<string>();
  const toolsSeen = new Set<string>();
  const toolsEnded = new Set<string>();
  const approvalsAsked = new Set<string>();
  const textId = (key: string) => `${runId}:${key}`;
  const writeText = (key: string, piece: string) => {
    if (closed.has(key) || piece === "") return;
    if (!shown.has(key)) {
      shown.set(key, "");
      const place: RunTextPlace = { nodeId: nodeIdOfTurn(key), turnKey: key };
      write({ type: "text-start", id: textId(key), providerMetadata: { switchboard: { ...place } } });
    }
    shown.set(key, shown.get(key)! + piece);
    write({ type: "text-delta", id: textId(key), delta: piece });
  };
  // Only a piece that follows what was written: one heard mid-turn (this follower joined late) or from another try of the turn is left to the journal.
  const stop = followRunText(runId, (piece) => {
    if (piece.offset === (shown.get(piece.turnKey)?.length ?? 0)) writeText(piece.turnKey, piece.text);
  });
  let waitingSince: number | null = null;
  // The journal is read from where the last read ended (its rows are numbered in the order they were written), and read whole
  // every `sweepEvery` reads: a row numbered below one already read but committed after it (two agents of one run recording at once) is found then.
  const callIds = new Map<string, string>();
  let turnsAfter = 0;
  let callsAfter = 0;
  let reads = 0;
  try {
    for (;;) {
      const [run] = await db.query<{ status: string; error: string | null; attention: string | null }>(`SELECT "status", "error", "attention" FROM "Run" WHERE "id" = ?`, [runId]);
      if (!run) {
        write({ type: "error", errorText: `The run ${runId} of this turn is gone.` });
        return;
      }
      const sweep = reads % sweepEvery === 0 || run.status === "completed" || run.status === "failed" || run.status === "cancelled";
      reads += 1;
      const turns = await db.query<{ key: string; value: string; sequence: number }>(`SELECT "key", "value", "sequence" FROM "RunStep" WHERE "runId" = ? AND "kind" = 'model-turn' AND "sequence" > ? ORDER BY "sequence"`, [runId, sweep ? -1 : turnsAfter]);
      for (const row of turns) {
        turnsAfter = Math.max(turnsAfter, Number(row.sequence));
        if (closed.has(row.key) && !sweep) continue;
        const recorded = JSON.parse(row.value) as RecordedTurn;
        const whole = recorded.turn.text ?? "";
        const already = shown.get(row.key) ?? "";
        // The feed's text is the start of the recorded one: the rest follows. A feed that said something else (a retried turn) keeps what it said.
        if (whole.startsWith(already)) writeText(row.key, whole.slice(already.length));
        if (shown.has(row.key) && !closed.has(row.key)) {
          write({ type: "text-end", id: textId(row.key) });
          closed.add(row.key);
        }
        for (const [index, call] of recorded.turn.toolCalls.entries()) {
          callIds.set(`${row.key}/c${index}`, call.id);
          if (toolsSeen.has(call.id) || options.answerOnly) continue;
          toolsSeen.add(call.id);
          write({ type: "tool-input-available", toolCallId: call.id, toolName: call.name, input: call.input ?? {}, dynamic: true });
        }
      }
      const calls = await db.query<RecordedCall & { sequence: number }>(`SELECT "stepKey", "nodeRunId", "server", "tool", "result", "error", "isError", "sequence" FROM "ToolCall" WHERE "runId" = ? AND "sequence" > ? ORDER BY "sequence"`, [runId, sweep ? -1 : callsAfter]);
      for (const call of calls) {
        const id = call.stepKey ? callIds.get(call.stepKey) : undefined;
        // A call whose turn is not read yet (numbered before it, committed after) is read again by a later sweep.
        if (id) callsAfter = Math.max(callsAfter, Number(call.sequence));
        if (!id || toolsEnded.has(id) || options.answerOnly) continue;
        toolsEnded.add(id);
        const toolMetadata = callPlace(runId, call);
        if (call.isError === true || call.isError === 1) write({ type: "tool-output-error", toolCallId: id, errorText: call.error ?? "the tool failed", dynamic: true, toolMetadata });
        else write({ type: "tool-output-available", toolCallId: id, output: call.result === null ? null : JSON.parse(call.result), dynamic: true, toolMetadata });
      }
      if (run.status === "needs-attention" && run.attention) {
        const request = JSON.parse(run.attention) as AttentionRequest;
        const id = callIds.get(request.key);
        if (request.approval && id && !approvalsAsked.has(id) && !options.answerOnly) {
          approvalsAsked.add(id);
          write({ type: "tool-approval-request", toolCallId: id, approvalId: stableId(runId, request.key), reason: request.message });
        }
        waitingSince ??= Date.now();
        if (Date.now() - waitingSince > (options.waitMs ?? 600_000)) return;
      } else {
        waitingSince = null;
      }
      if (run.status === "completed") return;
      if (run.status === "failed" || run.status === "cancelled") {
        const general = unfinishedAnswerText(run.status);
        write({ type: "error", errorText: options.answerOnly ? general : (run.error ?? general) });
        return;
      }
      if (options.signal?.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
    }
  } finally {
    stop();
    for (const key of shown.keys()) if (!closed.has(key)) write({ type: "text-end", id: textId(key) });
  }
}

