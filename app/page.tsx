import type { Metadata } from "next";
import { ErrorNotice } from "@/components/ui/error-notice";
import { InlineCode } from "@/components/ui/inline-code";
import { WorkflowList } from "@/components/workflows/workflow-list";
import { DatabaseError } from "@/lib/db";
import { listWorkflows, type WorkflowSummary } from "@/lib/db/app";
import {
  createWorkflowAction,
  deleteWorkflowAction,
  duplicateWorkflowAction,
  importWorkflowAction,
  renameWorkflowAction,
} from "./actions/workflows";
import { approveLooseningAction, approveOriginAction } from "./actions/grants";
import { may, requirePageRole } from "@/lib/auth";

const actions = {
  create: createWorkflowAction,
  rename: renameWorkflowAction,
  duplicate: duplicateWorkflowAction,
  remove: deleteWorkflowAction,
  importJson: importWorkflowAction,
};

// Reads the database on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Workflows" };

export default async function WorkflowsPage() {
  const actor = await requirePageRole("viewer", "/");
  let workflows: WorkflowSummary[];
  try {
    workflows = await listWorkflows();
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <>
        <PageHeading />
        <ErrorNotice title="The workflows cannot be listed">
          <InlineCode text={error.message} />
        </ErrorNotice>
      </>
    );
  }
  return (
    <>
      <PageHeading />
      <WorkflowList workflows={workflows} actions={may(actor, "editor") ? (may(actor, "owner") ? { ...actions, approveOrigin: approveOriginAction, approveLoosening: approveLooseningAction } : actions) : null} />
    </>
  );
}

function PageHeading() {
  return (
    <div className="page-heading">
      <h1>Workflows</h1>
      <p className="lead">Agents wired to their tools, tasks and each other. Open one to edit it on the canvas and run it.</p>
    </div>
  );
}
