"use client";
import "@/components/ui/controls.css";

import { useId } from "react";
import { OwnerApprovalFooter, useOwnerApproval } from "./owner-approval";
import type { ApprovalLooseningItem, ApproveLoosening } from "./action-types";

/** The same loosening, as a key: one node's policy over one server tool. */
export function looseningKey(item: Pick<ApprovalLooseningItem, "nodeId" | "server" | "tool">): string {
  return `${item.nodeId}\u0000${item.server}\u0000${item.tool}`;
}

/**
 * "This document would loosen a server's approval default": each node,
 * server tool, what the document says and the server's default, which holds
 * until an owner approves the loosening for this workflow. An owner gets an
 * Approve button on each line; anyone else reads that an owner must. Shown
 * by the import screen, the canvas after a save, and the Grants page.
 */
export function ApprovalLooseningNotice({
  workflowId,
  entries,
  approve,
  onApproved,
  title = "The document would loosen a server's approval default",
}: {
  workflowId: string;
  entries: readonly ApprovalLooseningItem[];
  /** Present for owners only: the server checks the role again. */
  approve?: ApproveLoosening;
  onApproved: (entry: ApprovalLooseningItem) => void;
  title?: string;
}) {
  const titleId = useId();
  const { error, approved, pending, approveEntry } = useOwnerApproval({
    approve: approve ? (entry: ApprovalLooseningItem) => approve(workflowId, entry.server, entry.tool) : undefined,
    refused: "The approval was refused: loosening a server's approval default needs an owner.",
    approvedText: (entry: ApprovalLooseningItem) => `Approved: this workflow's document may loosen ${entry.server}/${entry.tool}. It is listed on the Grants page.`,
    onApproved,
  });
  if (entries.length === 0 && !approved) return null;

  return (
    <section className="notice notice-warning approval-loosening-notice" aria-labelledby={titleId}>
      <h2 id={titleId} className="notice-title">
        {entries.length ? title : "Approval defaults"}
      </h2>
      {entries.length ? (
        <ul>
          {entries.map((entry) => (
            <li key={looseningKey(entry)}>
              <p>
                Node <strong>{entry.nodeId}</strong> says <code>{entry.document}</code> for <code>{entry.server}/{entry.tool}</code> ({entry.setAt}), looser than the server&rsquo;s default <code>{entry.floor}</code>. Runs keep the server&rsquo;s default until an owner approves.
              </p>
              {approve ? (
                <button type="button" className="button" disabled={pending} aria-label={`Approve loosening ${entry.server}/${entry.tool} to ${entry.document} for this workflow`} onClick={() => approveEntry(entry)}>
                  Approve
                </button>
              ) : (
                <p className="muted small">An owner must approve this before runs use the looser policy (here, or on the workflow&rsquo;s Grants page).</p>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <OwnerApprovalFooter workflowId={workflowId} approved={approved} error={error} />
    </section>
  );
}
