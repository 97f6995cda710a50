"use client";

import { useId } from "react";
import type { WorkflowEdge } from "@/lib/graph";
import { approvalChoices, choiceOf } from "./approval-choice";

export interface WiredToolSource {
  edgeId: string;
  /** The service, MCP server or Task Start node the tools come from. */
  source: string;
  kind: WorkflowEdge["kind"];
  approval: WorkflowEdge["approval"];
  /** The registry server's default for these tools, in words, when the source is an MCP server node whose server sets one. */
  serverDefault?: string;
}

/**
 * An agent's approval policy per connected service, server or Task: what
 * happens when it calls a tool that edge brings (allow, ask a person, deny,
 * or the rules). Stored on the edge, so it is exported with the workflow and
 * shown as a badge on it; a tool's own entry in the node's `approvals` wins.
 */
export function ApprovalPolicyFields({ nodeId, sources, onChange }: { nodeId: string; sources: readonly WiredToolSource[]; onChange: (edgeId: string, approval: WorkflowEdge["approval"]) => void }) {
  const idPrefix = useId();
  if (sources.length === 0) return null;
  return (
    <section className="approval-policies" aria-label={`Approval policies of ${nodeId}`}>
      <h3>Approval policies</h3>
      <p className="small muted">When this agent calls a tool of a connected node: run it, ask a person first (on Approvals), or refuse it.</p>
      {sources.map((source) => {
        const current = choiceOf(source.approval);
        const id = `${idPrefix}-${source.edgeId}`;
        return (
          <div className="form-field" key={source.edgeId}>
            <label htmlFor={id}>
              Tools from <code>{source.source}</code>
            </label>
            <select
              id={id}
              aria-describedby={source.serverDefault ? `${id}-server-default` : undefined}
              value={current.value}
              onChange={(event) => {
                const chosen = approvalChoices.find((choice) => choice.value === event.target.value);
                if (chosen) onChange(source.edgeId, chosen.policy);
              }}
            >
              {current.value === "custom" ? <option value="custom">{current.label}</option> : null}
              {approvalChoices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
            {source.serverDefault ? (
              <p className="small muted" id={`${id}-server-default`}>
                {source.approval === undefined ? "Applies now" : "Overridden here"}: {source.serverDefault}, set on the server&apos;s page.
              </p>
            ) : null}
          </div>
        );
      })}
    </section>
  );
}
