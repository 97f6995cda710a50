import type { Readable } from "node:stream";

/** Replies larger than this are cut off: a tool result is read by a model, not archived. */
export const maxReplyBytes = 10 * 1024 * 1024;

export type Transport = "json" | "text" | "sse" | "ndjson" | "xml" | "binary" | "headers";

/** Reads a whole body as text, refusing more than maxReplyBytes. */
export async function readText(body: Readable): Promise<string> {
  return (await readBytes(body)).toString("utf8");
}

/** Reads a whole body as bytes, refusing more than maxReplyBytes. */
export async function readBytes(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxReplyBytes) {
      body.destroy();
      throw new ReplyError(`the reply is larger than ${maxReplyBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export class ReplyError extends Error {}

/** Parses a JSON body; an empty body is null. */
export function parseJsonReply(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ReplyError(`the reply is not valid JSON (it starts with ${JSON.stringify(text.slice(0, 60))})`);
  }
}

/**
 * Reads a streamed body event by event: server-sent events (each `data:`
 * block, parsed as JSON when it is JSON) or newline-delimited JSON. Stops
 * at `terminator` (e.g. `[DONE]`). Each event is handed to `onEvent` as it
 * arrives; all of them are returned.
 */
export async function readStream(
  body: Readable,
  transport: "sse" | "ndjson",
  options: { terminator?: string; onEvent?: (event: unknown) => void },
): Promise<unknown[]> {
  const events: unknown[] = [];
  let buffer = "";
  let size = 0;
  let done = false;
  const emit = (data: string) => {
    if (done) return;
    if (options.terminator !== undefined && data.trim() === options.terminator) {
      done = true;
      return;
    }
    const event = transport === "ndjson" ? parseJsonReply(data) : parseMaybeJson(data);
    events.push(event);
    options.onEvent?.(event);
  };
  const separator = transport === "sse" ? /\r?\n\r?\n/ : /\r?\n/;
  const flush = (block: string) => {
    if (transport === "ndjson") {
      if (block.trim()) emit(block);
      return;
    }
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length) emit(data.join("\n"));
  };
  // One decoder for the whole stream: a character's bytes may arrive in two chunks.
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxReplyBytes) {
      body.destroy();
      throw new ReplyError(`the stream is larger than ${maxReplyBytes} bytes`);
    }
    buffer += decoder.decode(chunk as Buffer, { stream: true });
    let match;
    while (!done && (match = separator.exec(buffer))) {
      flush(buffer.slice(0, match.index));
      buffer = buffer.slice(match.index + match[0].length);
    }
    if (done) {
      body.destroy();
      break;
    }
  }
  buffer += decoder.decode();
  if (!done && buffer.trim()) flush(buffer);
  return events;
}

function parseMaybeJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
