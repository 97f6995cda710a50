import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunTraceView } from "@/components/run/run-trace-view";
import { ErrorNotice } from "@/components/ui/error-notice";
import { DatabaseError, getRunTrace } from "@/lib/db";
import type { RunTrace } from "@/lib/trace/run-trace";
import { cancelRun, decideRunAttention } from "@/app/actions/runs";

// A run changes while it runs: never cached.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Run" };

/** /runs/<id>: the run and its trace; the client part follows it live while it runs. */
export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  let trace: RunTrace | null;
  try {
    trace = await getRunTrace(id);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <ErrorNotice title="The run cannot be shown">
        {error.message}
      </ErrorNotice>
    );
  }
  if (!trace) notFound();
  return <RunTraceView initialTrace={trace} cancelRun={cancelRun} decideAttention={decideRunAttention} />;
}
