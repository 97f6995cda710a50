"use client";

import { useState } from "react";
import type { DynamicToolUIPart } from "ai";
import { ChatCallApp } from "@/components/mcp-app/call-app";

/** Decides a call held for approval (the server action the Approvals page uses). */
export type DecideApproval = (callId: string, decision: { action: "approve" } | { action: "deny"; reason: string }) => Promise<{ ok: boolean; error?: string; message?: string }>;

/**
 * One tool call in a chat bubble: its name and state as it starts and ends,
 * its arguments and result on demand, and, while it is held for approval,
 * Approve and Deny. A tool that declares a UI (MCP Apps) shows it here once
 * the call has its result, below the text view, where the conversation
 * gives the actions for it (the chat page and the playground; never a
 * widget, whose stream carries no tool calls).
 */
export function ToolCallPart({ part, decide }: { part: DynamicToolUIPart; decide?: DecideApproval }) {
  const [decision, setDecision] = useState<{ busy: boolean; error?: string; done?: string }>({ busy: false });
  const state = stateLabel(part);
  async function answer(action: "approve" | "deny") {
    if (!decide || !part.approval) return;
    setDecision({ busy: true });
    const result = await decide(part.approval.id, action === "approve" ? { action } : { action, reason: "Denied in the chat." });
    setDecision(result.ok ? { busy: false, done: action === "approve" ? "Approved" : "Denied" } : { busy: false, error: result.error ?? "The decision could not be recorded." });
  }
  return (
    <div className="chat-tool" data-state={part.state} role="group" aria-label={`Tool call ${part.toolName}: ${state}`}>
      <div className="chat-tool-heading">
        <span className="chat-tool-name">{part.toolName}</span>
        <span className="chat-tool-state">{state}</span>
      </div>
      <details>
        <summary>Arguments{part.state === "output-available" ? " and result" : ""}</summary>
        <pre>{JSON.stringify(part.input ?? {}, null, 2)}</pre>
        {part.state === "output-available" ? <pre>{typeof part.output === "string" ? part.output : JSON.stringify(part.output, null, 2)}</pre> : null}
      </details>
      {part.state === "output-error" ? <p className="chat-tool-error">{part.errorText}</p> : null}
      {part.state === "output-available" || part.state === "output-error" ? (
        <ChatCallApp place={part.toolMetadata} toolInput={part.input} call={part.state === "output-available" ? { result: part.output, error: null, isError: false } : { result: null, error: part.errorText, isError: true }} />
      ) : null}
      {part.state === "approval-requested" && decide ? (
        decision.done ? (
          <p role="status">{decision.done}; the run goes on.</p>
        ) : (
          <div className="chat-approval">
            <span>This call waits for your approval.</span>
            <button type="button" className="button" disabled={decision.busy} onClick={() => void answer("approve")} aria-label={`Approve the call to ${part.toolName}`}>
              Approve
            </button>
            <button type="button" className="button" disabled={decision.busy} onClick={() => void answer("deny")} aria-label={`Deny the call to ${part.toolName}`}>
              Deny
            </button>
            {decision.error ? <p role="alert">{decision.error}</p> : null}
          </div>
        )
      ) : null}
    </div>
  );
}

function stateLabel(part: DynamicToolUIPart): string {
  switch (part.state) {
    case "input-streaming":
    case "input-available":
      return "running";
    case "approval-requested":
      return "waiting for approval";
    case "approval-responded":
      return "decided";
    case "output-available":
      return "done";
    case "output-error":
      return "failed";
    case "output-denied":
      return "denied";
    default:
      return "running";
  }
}
