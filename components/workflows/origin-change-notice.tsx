"use client";
import "@/components/ui/controls.css";

import { useId } from "react";
import { OwnerApprovalFooter, useOwnerApproval } from "./owner-approval";
import type { ApproveOrigin } from "./action-types";
import { noticeKey, type OriginNoticeEntry } from "./origin-notices";

/**
 * "This workflow now sends a credential to a new origin": each node,
 * credential and origin, before → after, that runs refuse until an owner
 * approves. An owner gets an Approve button on each line (`approve`); anyone
 * else reads that an owner must approve. Shown by the import screen and the
 * canvas after a save.
 */
export function OriginChangeNotice({
  workflowId,
  entries,
  approve,
  onApproved,
  title = "A credential would go to a new origin",
}: {
  workflowId: string;
  entries: readonly OriginNoticeEntry[];
  /** Present for owners only: the server checks the role again. */
  approve?: ApproveOrigin;
  onApproved: (entry: OriginNoticeEntry) => void;
  title?: string;
}) {
  const titleId = useId();
  const { error, approved, pending, approveEntry } = useOwnerApproval({
    approve: approve ? (entry: OriginNoticeEntry) => approve(workflowId, entry.nodeType, entry.credential, entry.origin) : undefined,
    refused: "The approval was refused: approving an origin needs an owner.",
    approvedText: (entry: OriginNoticeEntry) => `Approved: this workflow may send the credential '${entry.credential}' of ${entry.nodeType} to ${entry.origin}. It is listed on the Grants page.`,
    onApproved,
  });
  if (entries.length === 0 && !approved) return null;

  return (
    <section className="notice notice-warning origin-change-notice" aria-labelledby={titleId}>
      <h2 id={titleId} className="notice-title origin-change-title">
        {entries.length ? title : "Credential origins"}
      </h2>
      {entries.length ? (
        <ul className="origin-change-list">
          {entries.map((entry) => (
            <li key={noticeKey(entry)}>
              <p>
                Node <strong>{entry.nodeId}</strong> ({entry.nodeType}) sends the credential <strong>{entry.credential}</strong> to <code>{entry.origin}</code>
                {": "}
                <span className="origin-change-diff">
                  {entry.before.length ? <code>{entry.before.join(", ")}</code> : <>only <code>{entry.approved.join(", ") || "nowhere"}</code> (where it may go)</>} →{" "}
                  <code>{entry.after.join(", ")}</code>
                </span>
                . The workflow is saved; runs refuse to send {entry.credential} there until an owner approves.
              </p>
              {approve ? (
                <button
                  type="button"
                  className="button"
                  disabled={pending}
                  aria-label={`Approve sending ${entry.credential} of ${entry.nodeType} to ${entry.origin}`}
                  onClick={() => approveEntry(entry)}
                >
                  Approve
                </button>
              ) : (
                <p className="muted small">An owner must approve this origin before runs may send {entry.credential} there (here, or on the workflow&rsquo;s Grants page).</p>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <OwnerApprovalFooter workflowId={workflowId} approved={approved} error={error} />
    </section>
  );
}
