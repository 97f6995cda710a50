import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunTraceView } from "@/components/run/run-trace-view";
import { ErrorNotice } from "@/components/ui/error-notice";
import { DatabaseError } from "@/lib/db";
import { getTraceOverview } from "@/lib/db/app";
import type { TraceOverview } from "@/lib/trace";
import { cancelRun, decideRunAttention, forkRunAt } from "@/app/actions/runs";
import { type ForkOptions, forkOptionsOf, runService } from "@/lib/runs";
import { may, requirePageRole } from "@/lib/auth";
import { decideApproval } from "@/app/actions/approvals";
import { callToolFromApp, loadToolApp } from "@/app/actions/tool-apps";
import type { ForkLinksView } from "@/components/run/fork-links";
import { editTestCase, keepRunAsTestCase } from "@/app/actions/test-cases";

// A run changes while it runs: never cached.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Run" };

/**
 * /runs/<id>[?call=<tool call id>]: the run and the first screen of its trace (the rest loads as it
 * scrolls); the client part follows it live while it runs.
 */
export default async function RunPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ call?: string | string[] }> }) {
  const actor = await requirePageRole("viewer");
  const { id } = await params;
  const { call } = await searchParams;
  let trace: TraceOverview | null;
  let forkLinks: ForkLinksView;
  let forkOptions: ForkOptions | undefined;
  const runner = may(actor, "runner");
  try {
    [trace, forkLinks, forkOptions] = await Promise.all([getTraceOverview(id), runService().forkLinks(id), runner ? forkOptionsOf(runService().db, id) : undefined]);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <ErrorNotice title="The run cannot be shown">
        {error.message}
      </ErrorNotice>
    );
  }
  if (!trace) notFound();
  // `?call=<id>` (from the canvas's run panel) opens that call in the trace.
  return (
    <RunTraceView
      initialTrace={trace}
      cancelRun={runner ? cancelRun : undefined}
      decideAttention={runner ? decideRunAttention : undefined}
      decideApproval={runner ? decideApproval : undefined}
      forkRun={runner ? forkRunAt : undefined}
      forkLinks={forkLinks}
      forkOptions={forkOptions}
      keepAsTest={may(actor, "editor") ? keepRunAsTestCase : undefined}
      editCase={may(actor, "editor") ? editTestCase : undefined}
      initialCall={typeof call === "string" ? call : undefined}
      toolApps={{ load: loadToolApp, call: runner ? callToolFromApp : undefined }}
    />
  );
}
