"use client";
import "@/components/ui/controls.css";

import Link from "next/link";
import { useId, useState, useTransition } from "react";
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
  const [error, setError] = useState<string | null>(null);
  const [approved, setApproved] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  if (entries.length === 0 && !approved) return null;

  function approveEntry(entry: OriginNoticeEntry) {
    if (!approve) return;
    startTransition(async () => {
      let result: Awaited<ReturnType<ApproveOrigin>>;
      try {
        result = await approve(workflowId, entry.nodeType, entry.credential, entry.origin);
      } catch {
        result = { ok: false, error: "The approval was refused: approving an origin needs an owner." };
      }
      if (!result.ok) return setError(result.error);
      setError(null);
      setApproved(`Approved: this workflow may send the credential '${entry.credential}' of ${entry.nodeType} to ${entry.origin}. It is listed on the Grants page.`);
      onApproved(entry);
    });
  }

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
      <p className="small">
        <Link href={`/workflows/${encodeURIComponent(workflowId)}/grants`}>The workflow&rsquo;s grants</Link>
      </p>
      <div role="status" aria-live="polite">
        {approved ? <p className="notice-ok">{approved}</p> : null}
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
