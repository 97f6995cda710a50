import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { followRunStream } from "./run-stream";
import { relayRunTextHere, runService } from "./process-runs";

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
 * A run as the HTTP answer `useChat` reads: a UI message stream whose
 * message is the run (`run-<runId>`, with `metadata`), following the run to
 * its end. The run page, the canvas and the chat all answer through it.
 */
export function runStreamResponse(options: { runId: string; signal: AbortSignal; answerOnly?: boolean; metadata: Record<string, string>; headers?: Record<string, string>; route: string; failure: string }): Response {
  const { runId } = options;
  relayRunTextHere();
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      writer.write({ type: "start", messageId: `run-${runId}`, messageMetadata: options.metadata });
      await followRunStream({ db: runService().db, runId, write: (chunk) => writer.write(chunk), signal: options.signal, answerOnly: options.answerOnly ?? false });
      writer.write({ type: "finish" });
    },
    onError: (error) => {
      console.error(`${options.route}, run ${runId}:`, error);
      return options.failure;
    },
  });
  return createUIMessageStreamResponse({ stream, headers: { "Cache-Control": "no-store", ...options.headers } });
}

/**
 * A chat turn as the HTTP answer: the turn's run as a stream (see
 * runStreamResponse), with the thread and run in its metadata and headers.
 * Sending a message and rejoining a turn answer the same stream, so a page
 * that rejoins gets the bubble it had, rebuilt from the start.
 */
export function chatTurnResponse(options: ChatTurnResponseOptions): Response {
  const { runId, threadId } = options;
  return runStreamResponse({
    runId,
    signal: options.signal,
    answerOnly: options.answerOnly,
    metadata: { threadId, runId },
    headers: { "X-Chat-Thread-Id": threadId, "X-Run-Id": runId },
    route: options.route,
    failure: "The answer could not be followed because of an error on our side; the run goes on, and its page has the trace.",
  });
}
