import type { Metadata } from "next";
import { ApprovalList } from "@/components/approvals/approval-list";
import { ErrorNotice } from "@/components/ui/error-notice";
import { may, requirePageRole } from "@/lib/auth";
import { QuestionsSection } from "@/app/questions/questions-section";
import { DatabaseError } from "@/lib/db";
import { runService } from "@/lib/runs";
import { decideApproval } from "@/app/actions/approvals";
import { callToolFromApp, loadToolApp } from "@/app/actions/tool-apps";

// Waiting calls come and go: read on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Approvals" };

/**
 * /approvals: everything that waits for a person, across runs, one section
 * per kind (each section reads its own list and brings its own form).
 * Today: tool calls an approval policy stopped. A new kind (questions from
 * tools) is one more section below.
 */
export default async function ApprovalsPage() {
  const actor = await requirePageRole("viewer", "/approvals");
  try {
    const approvals = await runService().waitingApprovals();
    return (
      <>
        <div className="page-heading">
          <h1>Approvals</h1>
          <p className="lead">Runs that wait for a person hold no worker: decide here, and a worker takes the run up again.</p>
        </div>
        <ApprovalList approvals={approvals} decide={may(actor, "runner") ? decideApproval : undefined} toolApps={{ load: loadToolApp, call: may(actor, "runner") ? callToolFromApp : undefined }} />
        <QuestionsSection canAnswer={may(actor, "runner")} />
      </>
    );
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <>
        <div className="page-heading">
          <h1>Approvals</h1>
        </div>
        <ErrorNotice title="The waiting calls cannot be listed">{error.message}</ErrorNotice>
      </>
    );
  }
}
