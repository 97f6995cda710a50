"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, type DynamicToolUIPart, type UIMessage } from "ai";
import { useMemo } from "react";
import type { RunTextPlace } from "@/lib/run-model";

/** One piece of a run as it streams: a model turn's text (growing while it is written), or a tool call. */
export type LiveRunPart =
  | { kind: "text"; key: string; nodeId: string; text: string; writing: boolean }
  | { kind: "tool"; key: string; part: DynamicToolUIPart };

export interface RunStream {
  parts: LiveRunPart[];
  /** The stream is open (the run has not ended, or its end is still arriving). */
  following: boolean;
  error: Error | undefined;
}

/**
 * Follows a run through GET /api/runs/<id>/stream with the AI SDK's
 * `useChat` (the stream is read as a resumed one: `resumeStream` on mount),
 * and gives its parts in order: each agent's text as it grows, tool calls as
 * they start and end. Mount it while the run runs; unmounting closes the
 * stream. The run page and the canvas read the same stream.
 */
export function useRunStream(runId: string): RunStream {
  const transport = useMemo(() => new DefaultChatTransport<UIMessage>({ api: "/api/runs" }), []);
  const { messages, status, error } = useChat({ id: runId, transport, resume: true });
  const parts = useMemo(() => liveParts(messages.at(-1)), [messages]);
  return { parts, following: status === "submitted" || status === "streaming", error };
}

/** The parts of the run's message the page shows: text with the node that wrote it, and tool calls. */
export function liveParts(message: UIMessage | undefined): LiveRunPart[] {
  if (!message) return [];
  return message.parts.flatMap((part, index): LiveRunPart[] => {
    if (part.type === "text") {
      const place = part.providerMetadata?.switchboard as Partial<RunTextPlace> | undefined;
      return [{ kind: "text", key: place?.turnKey ?? `text-${index}`, nodeId: place?.nodeId ?? "agent", text: part.text, writing: part.state === "streaming" }];
    }
    if (part.type === "dynamic-tool") return [{ kind: "tool", key: part.toolCallId, part }];
    return [];
  });
}

/** Each node's text so far, the latest turn's, for a short preview (the canvas's nodes). */
export function latestTextByNode(parts: readonly LiveRunPart[]): Record<string, string> {
  const byNode: Record<string, string> = {};
  for (const part of parts) if (part.kind === "text" && part.text !== "") byNode[part.nodeId] = part.text;
  return byNode;
}
