import type { UIMessage } from "ai";

/** A stored turn as GET /api/workflows/{id}/chat/{threadId} answers it. */
export interface ChatTurnItem {
  runId: string;
  message: string;
  answer: string;
  status: string;
  error: string | null;
}

/** A stored turn as the two messages the conversation shows. */
export function messagesOfTurn(turn: ChatTurnItem): UIMessage[] {
  const answer = turn.answer || (turn.status === "failed" || turn.status === "cancelled" ? `(${turn.status}: ${turn.error ?? "no answer"})` : turn.status === "needs-attention" ? "(waiting for a person; open the run to decide)" : "");
  return [
    { id: `user-${turn.runId}`, role: "user", parts: [{ type: "text", text: turn.message }] },
    { id: `run-${turn.runId}`, role: "assistant", parts: answer ? [{ type: "text", text: answer }] : [] },
  ];
}

/** True when the thread's last turn has not ended (queued, running, or waiting for a person): its stream can be rejoined. */
export function unfinishedTurn(turns: readonly ChatTurnItem[]): boolean {
  const last = turns.at(-1);
  return last !== undefined && (last.status === "queued" || last.status === "running" || last.status === "needs-attention");
}
