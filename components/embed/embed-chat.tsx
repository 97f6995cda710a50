"use client";

import { useEffect, useState } from "react";
import type { UIMessage } from "ai";
import { ChatConversation } from "@/components/chat/chat-conversation";
import { type ChatTurnItem, messagesOfTurn, unfinishedTurn } from "@/components/chat/chat-turn-messages";

const noMessages: UIMessage[] = [];

/** A visitor's random id, kept in the frame's storage (per browser and site); a new one when storage is refused. */
function visitorId(): string {
  const fresh = () => Array.from(crypto.getRandomValues(new Uint8Array(18)), (byte) => byte.toString(16).padStart(2, "0")).join("");
  try {
    const kept = window.localStorage.getItem("switchboard-visitor");
    if (kept && /^[A-Za-z0-9_-]{8,64}$/.test(kept)) return kept;
    const made = fresh();
    window.localStorage.setItem("switchboard-visitor", made);
    return made;
  } catch {
    return fresh();
  }
}

/** The origin of the page the frame is shown on: the browser's ancestor origins, else the referrer's. */
function parentOrigin(): string {
  const ancestors = (window.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  try {
    return document.referrer ? new URL(document.referrer).origin : "";
  } catch {
    return "";
  }
}

interface Access {
  token: string;
  visitor: string;
  parent: string;
}

/** The thread a conversation shows: null, a new one; with the turns it had when opened. */
interface OpenThread {
  threadId: string | null;
  messages: UIMessage[];
  /** Its last turn had not ended when read: the conversation rejoins its stream. */
  rejoin: boolean;
}

/**
 * The visitor's latest thread with its turns, read with the widget's token
 * (no cookies); null when they have none. Throws with the server's words
 * when a read is refused.
 */
async function latestThread(workflowId: string, access: Access): Promise<OpenThread | null> {
  const init: RequestInit = { credentials: "omit", cache: "no-store", headers: { Authorization: `Bearer ${access.token}`, "X-Visitor-Id": access.visitor, "X-Embed-Parent": access.parent } };
  const base = `/api/workflows/${encodeURIComponent(workflowId)}/chat`;
  const read = async <T,>(url: string): Promise<T> => {
    const response = await fetch(url, init);
    const body = (await response.json().catch(() => ({}))) as T & { error?: string };
    if (!response.ok) throw new Error(body.error ?? `The chat could not be read (${response.status}).`);
    return body;
  };
  const { threads } = await read<{ threads: Array<{ id: string }> }>(base);
  if (threads.length === 0) return null;
  const { turns } = await read<{ turns: ChatTurnItem[] }>(`${base}/${encodeURIComponent(threads[0].id)}`);
  return { threadId: threads[0].id, messages: turns.flatMap((turn) => messagesOfTurn(turn)), rejoin: unfinishedTurn(turns) };
}

const newThread: OpenThread = { threadId: null, messages: noMessages, rejoin: false };

/**
 * The widget's conversation: the chat component, with the widget's token and
 * the visitor's id on each request, and no cookies. It opens on the
 * visitor's latest thread; New chat starts another.
 */
export function EmbedChat(props: { workflowId: string; title: string; maxMessageChars: number }) {
  const [access, setAccess] = useState<Access | null>(null);
  const [open, setOpen] = useState<OpenThread | null>(null);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Changes only when the visitor starts a new chat: a thread its first message started keeps its conversation.
  const [view, setView] = useState(0);
  useEffect(() => {
    const token = new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
    setAccess({ token, visitor: visitorId(), parent: parentOrigin() });
  }, []);
  useEffect(() => {
    if (!access?.token) return;
    let live = true;
    latestThread(props.workflowId, access).then(
      (latest) => {
        if (!live) return;
        setOpen(latest ?? newThread);
        setThreadId(latest?.threadId ?? null);
      },
      (error: Error) => {
        if (!live) return;
        // The earlier thread could not be read: the visitor can still start a new one.
        setProblem(error.message);
        setOpen(newThread);
      },
    );
    return () => {
      live = false;
    };
  }, [access, props.workflowId]);
  if (!access) return <p className="embed-chat">Loading the chat…</p>;
  if (!access.token) return <p className="embed-chat embed-refused" role="alert">This chat widget has no token: copy its snippet again from the workflow&apos;s Widgets page.</p>;
  if (!open) return <p className="embed-chat">Loading the chat…</p>;
  return (
    <div className="embed-chat">
      <div className="embed-header">
        <h1 className="embed-title">{props.title}</h1>
        <button
          type="button"
          className="button-quiet"
          onClick={() => {
            setProblem(null);
            setOpen(newThread);
            setThreadId(null);
            setView((count) => count + 1);
          }}
        >
          New chat
        </button>
      </div>
      {problem ? <p role="alert" className="chat-error">{problem}</p> : null}
      <ChatConversation
        key={view}
        workflowId={props.workflowId}
        threadId={threadId}
        initialMessages={open.messages}
        rejoin={open.rejoin}
        onThreadStarted={setThreadId}
        place="page"
        maxMessageChars={props.maxMessageChars}
        label={`Chat: ${props.title}`}
        credentials="omit"
        headers={() => ({ Authorization: `Bearer ${access.token}`, "X-Visitor-Id": access.visitor, "X-Embed-Parent": access.parent })}
      />
    </div>
  );
}
