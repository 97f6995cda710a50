import Link from "next/link";
import type { EvaluationSummary } from "@/lib/evals";

/** One evaluation as the version-by-version table shows it. */
export interface EvaluationLine {
  id: string;
  version: number | null;
  datasetName: string;
  status: "running" | "completed" | "failed";
  error: string | null;
  startedAt: string;
  summary: EvaluationSummary;
}

const percent = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)}%`);
const milliseconds = (value: number | null) => (value === null ? "–" : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value} ms`);

/** Every evaluation of the workflow, oldest first: pass rate, mean score, tokens, cost and p50/p95 run time per version. */
export function EvaluationTable({ evaluations, compareHref }: { evaluations: readonly EvaluationLine[]; compareHref: (evaluationId: string) => string | null }) {
  return (
    <div className="table-scroll">
      <table className="parameter-table" aria-label="Evaluations by version">
        <caption>Each dataset scored on a version, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Dataset</th>
            <th scope="col">Rows</th>
            <th scope="col">Pass rate</th>
            <th scope="col">Mean score</th>
            <th scope="col">Tokens (in / out)</th>
            <th scope="col">Cost</th>
            <th scope="col">p50 time</th>
            <th scope="col">p95 time</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {evaluations.map((evaluation) => {
            const { summary } = evaluation;
            const href = compareHref(evaluation.id);
            return (
              <tr key={evaluation.id}>
                <th scope="row">{evaluation.version === null ? "current document" : `version ${evaluation.version}`}</th>
                <td>{evaluation.datasetName}</td>
                <td>
                  {summary.scored}/{summary.rows}
                  {evaluation.status === "running" ? <span className="badge badge-warning"> running</span> : evaluation.status === "failed" ? <span className="badge badge-error" title={evaluation.error ?? undefined}> failed</span> : null}
                </td>
                <td>
                  <span className={summary.passRate === 1 ? "badge badge-ok" : summary.passRate === null ? undefined : "badge badge-error"}>{percent(summary.passRate)}</span>
                  {summary.scored > 0 ? <span className="small muted"> {summary.passed} passed</span> : null}
                </td>
                <td>{summary.meanScore === null ? "–" : summary.meanScore.toFixed(3)}</td>
                <td>
                  {summary.inputTokens} / {summary.outputTokens}
                </td>
                <td>{summary.costUsd === null ? "–" : `$${summary.costUsd.toFixed(4)}`}</td>
                <td>{milliseconds(summary.p50Ms)}</td>
                <td>{milliseconds(summary.p95Ms)}</td>
                <td>
                  <time dateTime={evaluation.startedAt}>{evaluation.startedAt.replace("T", " ").slice(0, 19)}</time>
                  {href ? (
                    <>
                      {" "}
                      <Link href={href} aria-label={`Rows of ${evaluation.version === null ? "the current document" : `version ${evaluation.version}`} against the evaluation before`}>
                        rows
                      </Link>
                    </>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
