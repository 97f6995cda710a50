import type { Metadata } from "next";
import { CompareCandidates } from "@/components/run/compare-candidates";
import { ComparePicker } from "@/components/run/compare-picker";
import { RunCompareView } from "@/components/run/run-compare-view";
import { ErrorNotice } from "@/components/ui/error-notice";
import { DatabaseError, readWholeRunTrace } from "@/lib/db";
import { listRecentRuns, prisma } from "@/lib/db/app";
import { compareRuns, type CompareOutcome, type RunSummary } from "@/lib/trace";
import { requirePageRole } from "@/lib/auth";

// Runs come and go: read on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Compare runs" };

type Search = { a?: string | string[]; b?: string | string[]; all?: string | string[] };

/** /runs/compare?a=<run id>&b=<run id>: two runs lined up step by step, where they part first, and what each spent. */
export default async function ComparePage({ searchParams }: { searchParams: Promise<Search> }) {
  const actor = await requirePageRole("viewer", "/runs/compare");
  const params = await searchParams;
  const a = first(params.a);
  const b = first(params.b);
  let runs: RunSummary[];
  let outcome: CompareOutcome | null;
  try {
    runs = await listRecentRuns({ limit: 50 });
    // "Compare with…" on a run's page names only A: choose B first.
    outcome = params.a !== undefined && params.b !== undefined ? await compareRuns(a, b, (id) => readWholeRunTrace(prisma(), id)) : null;
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return (
      <>
        <Heading />
        <ErrorNotice title="The runs cannot be compared">{error.message}</ErrorNotice>
      </>
    );
  }
  const refusal = outcome && !outcome.ok ? outcome.problem : null;
  return (
    <>
      <Heading />
      <ComparePicker runs={runs} a={a} b={b} invalid={refusal ? { field: refusal.field, messageId: "compare-problem" } : undefined} />
      {refusal ? (
        <div id="compare-problem">
          <ErrorNotice title="These runs cannot be compared">{refusal.message}</ErrorNotice>
        </div>
      ) : null}
      {outcome?.ok ? <RunCompareView diff={outcome.diff} showAll={first(params.all) === "1"} /> : null}
      {!outcome && a ? <CompareCandidates a={a} runs={runs} /> : null}
    </>
  );
}

function Heading() {
  return (
    <div className="page-heading">
      <h1>Compare runs</h1>
      <p className="lead">Two runs lined up step by step, by node and order: where they part first, what differs in each step&apos;s arguments, results and answers, and what each spent.</p>
    </div>
  );
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? "";
}
