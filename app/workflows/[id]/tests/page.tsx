import Link from "next/link";
import { notFound } from "next/navigation";
import { saveScorersAction, startEvaluationAction } from "@/app/actions/evaluations";
import { DatasetUpload } from "@/components/tests/dataset-upload";
import { EvaluationStartForm } from "@/components/tests/evaluation-start-form";
import { EvaluationTable } from "@/components/tests/evaluation-table";
import { LiveRefresh } from "@/components/tests/live-refresh";
import { RowDiffList } from "@/components/tests/row-diff-list";
import { ScorersEditor } from "@/components/tests/scorers-editor";
import { ErrorNotice } from "@/components/ui/error-notice";
import { may, requirePageRole } from "@/lib/auth";
import { DatabaseError, DatasetStore, EvaluationStore } from "@/lib/db";
import { getWorkflow, listWorkflowVersions } from "@/lib/db/app";
import { runService } from "@/lib/runs";
import "@/components/ui/controls.css";
import "@/components/tests/tests.css";

export const dynamic = "force-dynamic";

/** Rows of the per-row diff shown at once. */
const diffRows = 50;

/**
 * A workflow's Tests page: its datasets (uploaded here or by `workflow
 * eval`), the scorers its evaluations apply, every evaluation version by
 * version (pass rate, mean score, tokens, cost, p50/p95 time), and the rows
 * whose verdict or outputs differ between two evaluations of one dataset.
 */
export default async function WorkflowTestsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ a?: string; b?: string; all?: string }> }) {
  const { id } = await params;
  const query = await searchParams;
  const actor = await requirePageRole("viewer", `/workflows/${id}/tests`);
  const db = runService().db;
  const datasets = new DatasetStore(db);
  const evaluations = new EvaluationStore(db);
  let record, datasetList, scorers, table, versions;
  try {
    [record, datasetList, scorers, table, versions] = await Promise.all([getWorkflow(id), datasets.datasets(id), datasets.scorers(id), evaluations.evaluations(id), listWorkflowVersions(id)]);
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return <ErrorNotice title="The tests cannot be read">{error.message}</ErrorNotice>;
  }
  if (!record) notFound();
  // The pair compared: the one asked for, else the last two evaluations of the newest evaluation's dataset.
  const byId = new Map(table.map((evaluation) => [evaluation.id, evaluation]));
  const previousOf = (evaluationId: string) => {
    const evaluation = byId.get(evaluationId)!;
    return table.filter((other) => other.datasetId === evaluation.datasetId && other.startedAt < evaluation.startedAt).at(-1) ?? null;
  };
  const last = table.at(-1);
  const b = (query.b && byId.get(query.b)) || last;
  const a = (query.a && byId.get(query.a)) || (b ? previousOf(b.id) : null);
  const comparable = a && b && a.datasetId === b.datasetId && a.id !== b.id;
  const pairs = comparable ? await evaluations.rowPairs(a.id, b.id, { limit: diffRows, onlyDifferent: query.all !== "1" }) : [];
  const label = (evaluation: { version: number | null }) => (evaluation.version === null ? "current document" : `version ${evaluation.version}`);
  const base = `/workflows/${encodeURIComponent(id)}/tests`;
  return (
    <div className="tests-page">
      <LiveRefresh active={table.some((evaluation) => evaluation.status === "running")} />
      <p>
        <Link href={`/workflows/${encodeURIComponent(id)}`}>Back to the canvas of “{record.name}”</Link>
      </p>
      <h1>Tests of “{record.name}”</h1>
      <section aria-labelledby="datasets">
        <h2 id="datasets">Datasets</h2>
        <p className="small muted">
          A JSONL file has one row per line, <code>{'{"input": {...}, "expected": {...}}'}</code>; a CSV file has a header row, its columns input fields, and <code>expected.&lt;output&gt;</code> columns for the expected outputs. From the command line:{" "}
          <code>npm run workflow -- eval FILE --workflow {id} [--version V]</code>.
        </p>
        {may(actor, "runner") ? <DatasetUpload workflowId={id} /> : null}
        {datasetList.length === 0 ? (
          <p className="muted">No dataset yet.</p>
        ) : (
          <ul>
            {datasetList.map((dataset) => (
              <li key={dataset.id}>
                {dataset.name}: {dataset.rowCount} rows, uploaded <time dateTime={dataset.createdAt}>{dataset.createdAt.replace("T", " ").slice(0, 16)}</time>
              </li>
            ))}
          </ul>
        )}
        {may(actor, "runner") && datasetList.length > 0 ? (
          <EvaluationStartForm workflowId={id} datasets={datasetList} versions={[...versions].reverse().map((version) => ({ number: version.number, note: version.note }))} start={startEvaluationAction} />
        ) : null}
      </section>
      <section aria-labelledby="scorers">
        <h2 id="scorers">Scorers</h2>
        <ScorersEditor workflowId={id} scorers={scorers} canEdit={may(actor, "editor")} save={saveScorersAction} />
      </section>
      <section aria-labelledby="evaluations">
        <h2 id="evaluations">Evaluations by version</h2>
        {table.length === 0 ? (
          <p className="muted">No evaluation yet: upload a dataset and run one.</p>
        ) : (
          <EvaluationTable
            evaluations={table}
            compareHref={(evaluationId) => {
              const before = previousOf(evaluationId);
              return before ? `${base}?a=${encodeURIComponent(before.id)}&b=${encodeURIComponent(evaluationId)}#row-diff` : null;
            }}
          />
        )}
      </section>
      <section aria-labelledby="row-diff">
        <h2 id="row-diff">Rows, {comparable ? `${label(a)} → ${label(b)}` : "two versions side by side"}</h2>
        {!comparable ? (
          <p className="muted">Score one dataset on two versions to see its rows side by side.</p>
        ) : (
          <>
            <p className="small">
              {query.all === "1" ? "Every row" : "The rows whose verdict or outputs differ"} between {label(a)} and {label(b)} of {b.datasetName}, the first {diffRows}.{" "}
              <Link href={`${base}?a=${encodeURIComponent(a.id)}&b=${encodeURIComponent(b.id)}${query.all === "1" ? "" : "&all=1"}#row-diff`}>{query.all === "1" ? "Only the rows that differ" : "Every row"}</Link>
            </p>
            {pairs.length === 0 ? <p className="muted">No row differs.</p> : <RowDiffList pairs={pairs} labelA={label(a)} labelB={label(b)} />}
          </>
        )}
      </section>
    </div>
  );
}
