"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import type { WaitingApproval } from "@/lib/trace/browser";
import { ApprovalCard } from "./approval-card";
import type { DecideApprovalAction } from "./approval-decision-form";
import { ToolAppContext, type ToolAppActions } from "@/components/mcp-app/app-actions";
import styles from "./approvals.module.css";

/**
 * The Approvals page's section for tool calls an approval policy stopped,
 * across runs, oldest first. Each decision is announced here and the list
 * read again (the decided call leaves it).
 */
/** `decide` is absent for people who may only read (viewers): the calls are listed without the form. */
export function ApprovalList({ approvals, decide, toolApps }: { approvals: readonly WaitingApproval[]; decide?: DecideApprovalAction; toolApps?: ToolAppActions }) {
  const router = useRouter();
  const [notice, setNotice] = useState("");
  return (
    <ToolAppContext.Provider value={toolApps ?? null}>
    <section className={styles.section} aria-labelledby="approval-list-heading">
      <h2 id="approval-list-heading">Tool calls waiting for approval ({approvals.length})</h2>
      <p role="status" className={styles.notice}>
        {notice}
      </p>
      {approvals.length === 0 ? (
        <EmptyState title="No call waits for approval">
          <p>When an approval policy asks before a tool call (for example outside content flowing into a tool that writes), the call waits here.</p>
        </EmptyState>
      ) : (
        <ul className={styles.list} aria-label="Calls waiting for approval">
          {approvals.map((approval) => (
            <li key={approval.callId}>
              <ApprovalCard
                approval={approval}
                decide={decide}
                onDecided={(message) => {
                  setNotice(`${approval.request.server}/${approval.request.tool} in ${approval.workflowName}: ${message}`);
                  router.refresh();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
    </ToolAppContext.Provider>
  );
}
