import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { followRunStream } from "./run-stream";
import { runService } from "./process-runs";

export interface ChatTurnResponseOptions {
  runId: string;
  threadId: string;
  /** The request's signal: the stream stops following when the page goes away (the run goes on). */
  signal: AbortSignal;
  /** A widget's visitor: the answer's text only (see FollowRunStreamOptions). */
  answerOnly: boolean;
  /** The route, for the server log. */
  route: string;
}

/**
 * A chat turn as the HTTP answer `useChat` reads: a UI message stream whose
 * message is the turn's run (`run-<runId>`, with the thread and run in its
 * metadata), following the run to its end. Sending a message and rejoining
 * a turn answer the same stream, so a page that rejoins gets the bubble it
 * had, rebuilt from the start.
 */
export function chatTurnResponse(options: ChatTurnResponseOptions): Response {
  const { runId, threadId } = options;
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      writer.write({ type: "start", messageId: `run-${runId}`, messageMetadata: { threadId, runId } });
      await followRunStream({ db: runService().db, runId, write: (chunk) => writer.write(chunk), signal: options.signal, answerOnly: options.answerOnly });
      writer.write({ type: "finish" });
    },
    onError: (error) => {
      console.error(`${options.route}, run ${runId}:`, error);
      return "The answer could not be followed because of an error on our side; the run goes on, and its page has the trace.";
    },
  });
  return createUIMessageStreamResponse({ stream, headers: { "Cache-Control": "no-store", "X-Chat-Thread-Id": threadId, "X-Run-Id": runId } });
}
