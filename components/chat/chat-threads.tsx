"use client";

import type { UIMessage } from "ai";
import { useCallback, useEffect, useRef, useState } from "react";
import { ChatConversation } from "./chat-conversation";
import { type ChatTurnItem, messagesOfTurn, unfinishedTurn } from "./chat-turn-messages";
import type { ToolAppActions } from "@/components/mcp-app/app-actions";
import type { DecideApproval } from "./tool-call-part";
import "./chat.css";

/** A thread as the list shows it (GET /api/workflows/{id}/chat). */
export interface ChatThreadItem {
  id: string;
  title: string;
  shared: boolean;
  ownerId: string;
  updatedAt: string;
}


export interface ChatThreadsProps {
  workflowId: string;
  /** Who is looking (their threads can be renamed and deleted); read with the list when absent. */
  viewerId?: string;
  /** The threads when the page was made; null: read them on mount. */
  initialThreads: ChatThreadItem[] | null;
  decide?: DecideApproval;
  /** A called tool's UI in the bubble (MCP Apps), as on the trace row. */
  toolApps?: ToolAppActions;
  maxMessageChars: number;
  /** canvas: the playground (turns run `document()`, the unsaved document); page: the chat page. */
  place: "canvas" | "page";
  document?: () => unknown;
}

/**
 * Chat threads of a workflow: the list at the side (new, rename, delete)
 * and the open thread's conversation. The chat page and the playground
 * beside the canvas both show this.
 */
export function ChatThreads(props: ChatThreadsProps) {
  const { workflowId, place } = props;
  const [threads, setThreads] = useState(props.initialThreads ?? []);
  const [viewerId, setViewerId] = useState(props.viewerId ?? null);
  const [current, setCurrent] = useState<string | null>(props.initialThreads?.[0]?.id ?? null);
  const [messages, setMessages] = useState<UIMessage[]>([]);
  const [rejoin, setRejoin] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Changes only when a person opens a thread (or a new one): a thread its first message started keeps its conversation.
  const [view, setView] = useState(0);
  const startedHere = useRef<string | null>(null);
  const open = (threadId: string | null) => {
    startedHere.current = null;
    setCurrent(threadId);
    setView((count) => count + 1);
  };
  const base = `/api/workflows/${encodeURIComponent(workflowId)}/chat`;

  const refresh = useCallback(async () => {
    const response = await fetch(`${base}?place=${place}`, { cache: "no-store" });
    if (!response.ok) return;
    const body = (await response.json()) as { threads: ChatThreadItem[]; viewerId: string };
    setThreads(body.threads);
    setViewerId(body.viewerId);
  }, [base, place]);

  const loadOnMount = props.initialThreads === null;
  useEffect(() => {
    if (loadOnMount) void refresh();
  }, [loadOnMount, refresh]);

  useEffect(() => {
    if (!current) {
      setRejoin(false);
      setMessages([]);
      return;
    }
    if (startedHere.current === current) return;
    let live = true;
    void (async () => {
      const response = await fetch(`${base}/${encodeURIComponent(current)}`, { cache: "no-store" });
      if (!live) return;
      if (!response.ok) {
        setProblem(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `The thread could not be read (${response.status}).`);
        return;
      }
      const { turns } = (await response.json()) as { turns: ChatTurnItem[] };
      setRejoin(unfinishedTurn(turns));
      setMessages(turns.flatMap((turn) => messagesOfTurn(turn)));
    })();
    return () => {
      live = false;
    };
    // Read once per thread opened: a turn started here is already in the conversation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current === null ? null : current, base]);

  async function rename(thread: ChatThreadItem) {
    const title = window.prompt("Rename the thread", thread.title);
    if (title === null) return;
    const response = await fetch(`${base}/${encodeURIComponent(thread.id)}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title }) });
    setProblem(response.ok ? null : ((await response.json()) as { error: string }).error);
    await refresh();
  }

  async function remove(thread: ChatThreadItem) {
    if (!window.confirm(`Delete the thread “${thread.title}”? Its runs stay on the Runs page.`)) return;
    const response = await fetch(`${base}/${encodeURIComponent(thread.id)}`, { method: "DELETE" });
    setProblem(response.ok ? null : ((await response.json()) as { error: string }).error);
    if (current === thread.id) open(null);
    await refresh();
  }

  return (
    <div className={`chat-layout chat-${place}`}>
      <nav className="chat-thread-list" aria-label="Chat threads">
        <button type="button" className="button" onClick={() => open(null)}>
          New chat
        </button>
        <ul>
          {threads.map((thread) => (
            <li key={thread.id} className={thread.id === current ? "chat-thread chat-thread-current" : "chat-thread"}>
              <button type="button" className="button-quiet chat-thread-open" aria-current={thread.id === current ? "true" : undefined} onClick={() => open(thread.id)}>
                {thread.title}
                {thread.shared ? <span className="chat-thread-shared"> (shared)</span> : null}
              </button>
              {thread.ownerId === viewerId ? (
                <span className="chat-thread-actions">
                  <button type="button" className="button-quiet" aria-label={`Rename the thread ${thread.title}`} onClick={() => void rename(thread)}>
                    Rename
                  </button>
                  <button type="button" className="button-quiet" aria-label={`Delete the thread ${thread.title}`} onClick={() => void remove(thread)}>
                    Delete
                  </button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        {problem ? <p role="alert">{problem}</p> : null}
      </nav>
      <ChatConversation
        key={view}
        workflowId={workflowId}
        threadId={current}
        initialMessages={messages}
        rejoin={rejoin}
        decide={props.decide}
        toolApps={props.toolApps}
        document={props.document}
        place={place}
        maxMessageChars={props.maxMessageChars}
        label={current ? `Conversation: ${threads.find((thread) => thread.id === current)?.title ?? "thread"}` : "New conversation"}
        onThreadStarted={(threadId) => {
          startedHere.current = threadId;
          setCurrent(threadId);
          void refresh();
        }}
        onTurnEnded={() => void refresh()}
      />
    </div>
  );
}
