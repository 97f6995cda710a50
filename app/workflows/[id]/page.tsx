import path from "node:path";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CanvasEditor } from "@/components/canvas/canvas-editor";
import { ErrorNotice } from "@/components/ui/error-notice";
import { canvasCatalogue, openCanvasWorkflow } from "@/lib/canvas";
import { DatabaseError } from "@/lib/db";
import { getWorkflow, listWorkflowVersions } from "@/lib/db/app";
import { parseWorkflow } from "@/lib/graph";
import { cachedCatalogue } from "@/lib/manifest";
import { cancelRun, startRun } from "../../actions/runs";
import { decideApproval } from "../../actions/approvals";
import { versionItemOf } from "@/lib/runs";
import { callToolFromApp, loadToolApp } from "../../actions/tool-apps";
import { testWorkflowDocument } from "../../actions/test-cases";
import { listServerToolsAction } from "../../actions/servers";
import { approveLooseningAction, approveOriginAction, grantAction } from "../../actions/grants";
import { issueWebhookAction } from "../../actions/triggers";
import { noticeEntries } from "@/components/workflows/origin-notices";
import { reviewOrigins } from "./grants/origin-review";
import { may, requirePageRole, requireRole } from "@/lib/auth";
import { canvasServers } from "./canvas-servers";
import {
  listWorkflowVersionsAction,
  restoreWorkflowVersionAction,
  retestWorkflowVersionAction,
  saveWorkflowDocumentAction,
  saveWorkflowVersionAction,
} from "../../actions/workflows";

// Reads the database on every request; nodes/ through the catalogue cache (re-read when a file changes, outside production).
export const dynamic = "force-dynamic";

const saveActions = {
  saveDocument: saveWorkflowDocumentAction,
  saveVersion: saveWorkflowVersionAction,
  listVersions: listWorkflowVersionsAction,
  restoreVersion: restoreWorkflowVersionAction,
  retestVersion: retestWorkflowVersionAction,
};
const runActions = { startRun, cancelRun, testDocument: testWorkflowDocument, decideApproval, toolApps: { load: loadToolApp, call: callToolFromApp } };

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  try {
    const workflow = await getWorkflow(id);
    return { title: workflow ? workflow.name : "Workflow not found" };
  } catch {
    return { title: "Workflow" };
  }
}

export default async function WorkflowCanvasPage({ params }: Params) {
  const actor = await requirePageRole("viewer");
  const { id } = await params;
  // Editors and owners grant servers from the node; others see only that it is not granted.
  const serverActions = actor.role === "owner" || actor.role === "editor" ? { listTools: listServerToolsAction, grant: grantAction } : { listTools: listServerToolsAction };
  let record, versions;
  try {
    [record, versions] = await Promise.all([getWorkflow(id), listWorkflowVersions(id)]);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <ErrorNotice title="The workflow cannot be opened">{error.message}</ErrorNotice>;
  }
  if (!record) notFound();
  const parsed = parseWorkflow(record.document);
  if (!parsed.ok) {
    return (
      <ErrorNotice title={`“${record.name}” is not a valid workflow document`}>
        {parsed.problems.map((problem) => problem.message).join("; ")}. Export it to fix it by hand, or restore a saved version.
      </ErrorNotice>
    );
  }
  let review;
  try {
    review = await reviewOrigins(record.id, null, parsed.workflow);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <ErrorNotice title="The workflow cannot be opened">{error.message}</ErrorNotice>;
  }
  // The cached catalogue: linting nodes/ on every request was most of an empty canvas's server time.
  const [linted, servers] = await Promise.all([cachedCatalogue(path.join(process.cwd(), "nodes")), canvasServers(record.id, { toolNames: may(actor, "editor") })]);
  const catalogue = canvasCatalogue(linted);
  // Opened and analysed here, once: the browser's first render then only draws (lib/canvas/open-canvas.ts).
  const opened = openCanvasWorkflow({ ...parsed.workflow, name: record.name }, catalogue, servers);
  return (
    <CanvasEditor
      workflowId={record.id}
      workflow={opened.workflow}
      analysis={opened.analysis}
      catalogue={catalogue}
      versions={versions.map(versionItemOf)}
      saveActions={saveActions}
      runActions={runActions}
      servers={servers}
      serverActions={may(actor, "editor") ? serverActions : undefined}
      access={{ edit: may(actor, "editor"), run: may(actor, "runner") }}
      origins={{ waiting: noticeEntries(review.pendingOrigins), approve: may(actor, "owner") ? approveOriginAction : undefined }}
      triggerActions={may(actor, "editor") ? { issueWebhook: issueWebhookAction } : undefined}
      loosenings={{ waiting: review.approvalLoosenings ?? [], approve: may(actor, "owner") ? approveLooseningAction : undefined }}
    />
  );
}
