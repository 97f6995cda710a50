"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage } from "ai";
import { useEffect, useMemo, useRef, useState } from "react";
import { ToolAppContext, type ToolAppActions } from "@/components/mcp-app/app-actions";
import { ToolCallPart, type DecideApproval } from "./tool-call-part";

export interface ChatConversationProps {
  workflowId: string;
  /** The thread shown; null: the next message starts a new one. */
  threadId: string | null;
  /** The thread's turns so far, as messages. */
  initialMessages: UIMessage[];
  /** A new thread was started by the first message. */
  onThreadStarted?(threadId: string): void;
  /** A turn ended (the list shows the thread first). */
  onTurnEnded?(): void;
  decide?: DecideApproval;
  /** Reading a called tool's UI and the frame's calls (MCP Apps); absent: no app is shown (an embedded widget). */
  toolApps?: ToolAppActions;
  /** The playground: the unsaved document each turn runs. */
  document?: () => unknown;
  place: "canvas" | "page";
  /** The longest message taken (the server refuses longer ones, naming the limit). */
  maxMessageChars: number;
  label: string;
  /** Extra headers on each turn's request (an embedded widget: its token, visitor and host page). */
  headers?: () => Record<string, string>;
  /** Cookies on the requests: an embedded widget sends none. */
  credentials?: RequestCredentials;
  /** The thread's last turn had not ended when it was read: rejoin its stream once the turns are shown. */
  rejoin?: boolean;
}

/**
 * A conversation with a workflow through `useChat`: each message is a turn
 * (a run) of the thread, its answer streamed in as the run goes.
 */
export function ChatConversation(props: ChatConversationProps) {
  const threadRef = useRef(props.threadId);
  threadRef.current = props.threadId;
  const documentRef = useRef(props.document);
  documentRef.current = props.document;
  const headersRef = useRef(props.headers);
  headersRef.current = props.headers;
  const transport = useMemo(
    () =>
      new DefaultChatTransport<UIMessage>({
        api: `/api/workflows/${encodeURIComponent(props.workflowId)}/chat`,
        ...(props.credentials ? { credentials: props.credentials } : {}),
        prepareSendMessagesRequest: ({ messages }) => {
          const last = messages.at(-1);
          const message = last?.parts.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";
          return { body: { ...(threadRef.current ? { threadId: threadRef.current } : {}), message, place: props.place, ...(documentRef.current ? { document: documentRef.current() } : {}) }, ...(headersRef.current ? { headers: headersRef.current() } : {}) };
        },
        // Rejoining follows the thread's unfinished turn (GET …/chat/<thread>/stream), replayed from the journal: the bubble is rebuilt, each part once.
        prepareReconnectToStreamRequest: ({ api }) => ({ api: `${api}/${encodeURIComponent(threadRef.current ?? "none")}/stream`, ...(headersRef.current ? { headers: headersRef.current() } : {}) }),
      }),
    [props.workflowId, props.place, props.credentials],
  );
  // One chat per mount: a thread started by the first message keeps its conversation.
  const [chatId] = useState(() => props.threadId ?? `new-${props.place}-${Math.random().toString(36).slice(2)}`);
  const { messages, sendMessage, status, error, setMessages, resumeStream } = useChat({
    id: chatId,
    transport,
    messages: props.initialMessages,
    onFinish: ({ message }) => {
      const metadata = message.metadata as { threadId?: string } | undefined;
      if (metadata?.threadId && metadata.threadId !== threadRef.current) props.onThreadStarted?.(metadata.threadId);
      props.onTurnEnded?.();
    },
  });
  useEffect(() => {
    setMessages(props.initialMessages);
    if (props.rejoin && threadRef.current) void resumeStream();
  }, [props.initialMessages, props.rejoin, setMessages, resumeStream]);
  // A stream that broke mid-answer (the web process serving it died) is rejoined once per turn; a refusal before
  // the answer began (429, 409…) is not a broken stream and stays on screen.
  const previousStatus = useRef(status);
  const rejoinedAfterBreak = useRef<string | null>(null);
  useEffect(() => {
    const broke = status === "error" && previousStatus.current === "streaming";
    previousStatus.current = status;
    const turn = messages.at(-1)?.id ?? null;
    if (!broke || !threadRef.current || rejoinedAfterBreak.current === turn) return;
    rejoinedAfterBreak.current = turn;
    void resumeStream();
  }, [status, messages, resumeStream]);
  const [draft, setDraft] = useState("");
  const tooLong = draft.length > props.maxMessageChars;
  const busy = status === "submitted" || status === "streaming";
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    listRef.current?.lastElementChild?.scrollIntoView?.({ block: "end" });
  }, [messages]);

  return (
    <section className="chat-conversation" aria-label={props.label}>
      <ToolAppContext.Provider value={props.toolApps ?? null}>
        <ol className="chat-messages" ref={listRef} aria-live="polite">
          {messages.length === 0 ? <li className="chat-empty">Send a message to start. Each message runs the workflow once; the thread is its memory.</li> : null}
          {messages.map((message) => (
            <li key={message.id} className={`chat-message chat-${message.role}`} data-role={message.role}>
              <span className="chat-speaker">{message.role === "user" ? "You" : "Workflow"}</span>
              {message.parts.map((part, index) => {
                if (part.type === "text") return <p key={index} className="chat-text">{part.text}</p>;
                if (part.type === "dynamic-tool") return <ToolCallPart key={part.toolCallId} part={part} decide={props.decide} />;
                return null;
              })}
            </li>
          ))}
        </ol>
      </ToolAppContext.Provider>
      {error ? <p role="alert" className="chat-error">{readableError(error)}</p> : null}
      <form
        className="chat-input"
        onSubmit={(event) => {
          event.preventDefault();
          if (!draft.trim() || tooLong || busy) return;
          void sendMessage({ text: draft });
          setDraft("");
        }}
      >
        <label className="chat-input-label">
          <span className="visually-hidden">Message</span>
          <textarea
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
            placeholder="Message the workflow"
            rows={2}
            aria-invalid={tooLong}
            aria-describedby={tooLong ? "chat-too-long" : undefined}
          />
        </label>
        {tooLong ? <p id="chat-too-long" role="alert">The message is longer than the limit of {props.maxMessageChars} characters.</p> : null}
        <button type="submit" className="button" disabled={busy || tooLong || !draft.trim()}>
          {busy ? "Answering…" : "Send"}
        </button>
      </form>
    </section>
  );
}

/** The server's JSON error (`{ error }`) when there is one, else the message. */
function readableError(error: Error): string {
  try {
    const parsed = JSON.parse(error.message) as { error?: string };
    return parsed.error ?? error.message;
  } catch {
    return error.message;
  }
}
