"use client";

import { useEffect, useState } from "react";
import { ChatConversation } from "@/components/chat/chat-conversation";

const noMessages: never[] = [];

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

/** The widget's conversation: the chat component, with the widget's token and the visitor's id on each request, and no cookies. */
export function EmbedChat(props: { workflowId: string; title: string; maxMessageChars: number }) {
  const [access, setAccess] = useState<{ token: string; visitor: string; parent: string } | null>(null);
  const [threadId, setThreadId] = useState<string | null>(null);
  useEffect(() => {
    const token = new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
    setAccess({ token, visitor: visitorId(), parent: parentOrigin() });
  }, []);
  if (!access) return <p className="embed-chat">Loading the chat…</p>;
  if (!access.token) return <p className="embed-chat embed-refused" role="alert">This chat widget has no token: copy its snippet again from the workflow&apos;s Widgets page.</p>;
  return (
    <div className="embed-chat">
      <h1 className="embed-title">{props.title}</h1>
      <ChatConversation
        workflowId={props.workflowId}
        threadId={threadId}
        initialMessages={noMessages}
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
