import type { Metadata } from "next";
import { ErrorNotice } from "@/components/ui/error-notice";
import { may, requirePageRole } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { QuestionsSection } from "./questions-section";

// Questions come and go with runs: read on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Questions" };

/** /questions[?run=<id>]: the questions tools asked that wait for a person (all runs, or one). */
export default async function QuestionsPage({ searchParams }: { searchParams: Promise<{ run?: string | string[] }> }) {
  const actor = await requirePageRole("viewer", "/questions");
  const { run } = await searchParams;
  try {
    return (
      <>
        <div className="page-heading">
          <h1>Questions</h1>
        </div>
        <QuestionsSection runId={typeof run === "string" ? run : undefined} canAnswer={may(actor, "runner")} />
      </>
    );
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <ErrorNotice title="The questions cannot be listed">{error.message}</ErrorNotice>;
  }
}
