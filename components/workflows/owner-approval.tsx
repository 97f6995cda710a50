"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/components/servers/action-types";

/**
 * An owner's Approve button on a notice's entry: runs the action, keeps the
 * error or the sentence that says what was approved, and tells the notice
 * so it can drop the entry. A refusal the action throws (a role below owner)
 * reads as `refused`.
 */
export function useOwnerApproval<E>(options: { approve?: (entry: E) => Promise<ActionResult>; refused: string; approvedText: (entry: E) => string; onApproved: (entry: E) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [approved, setApproved] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  function approveEntry(entry: E) {
    const approve = options.approve;
    if (!approve) return;
    startTransition(async () => {
      let result: ActionResult;
      try {
        result = await approve(entry);
      } catch {
        result = { ok: false, error: options.refused };
      }
      if (!result.ok) return setError(result.error);
      setError(null);
      setApproved(options.approvedText(entry));
      options.onApproved(entry);
    });
  }
  return { error, approved, pending, approveEntry };
}

/** The end of an approval notice: the workflow's Grants page, what was approved (announced), and an error (alerted). */
export function OwnerApprovalFooter({ workflowId, approved, error }: { workflowId: string; approved: string | null; error: string | null }) {
  return (
    <>
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
    </>
  );
}
