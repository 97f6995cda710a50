import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { type RunDiff, type RunSide, foldSameSteps, stepLabel } from "@/lib/trace/browser";
import { CompareTotals } from "./compare-totals";
import { ValueChangeList } from "./json-change-list";
import { StepPairRow } from "./step-pair-row";
import { StatusBadge } from "./status-badge";
import styles from "./run-compare.module.css";

/**
 * Two runs side by side: who they are, what each spent, where they part
 * first, and every step lined up with what differs in it.
 */
export function RunCompareView({ diff, showAll = false }: { diff: RunDiff; showAll?: boolean }) {
  const first = diff.firstDivergence === null ? null : diff.pairs[diff.firstDivergence];
  // Long runs of identical steps fold into one line unless all are asked for.
  const rows = foldSameSteps(diff.pairs, showAll ? diff.pairs.length : 1);
  const allHref = `/runs/compare?a=${encodeURIComponent(diff.a.run.id)}&b=${encodeURIComponent(diff.b.run.id)}&all=1`;
  return (
    <>
      <div className={styles.sides}>
        <RunSideCard side={diff.a} letter="A" />
        <RunSideCard side={diff.b} letter="B" />
      </div>
      {diff.sameWorkflow ? null : <p className="notice notice-warning">These runs are of different workflows: steps are lined up by node id and order all the same.</p>}
      <section className={`card ${styles.panel}`} aria-labelledby="compare-summary">
        <h2 id="compare-summary">Summary</h2>
        {first ? (
          <p className={styles.divergence} role="status">
            First divergence at step {diff.firstDivergence! + 1} of {diff.pairs.length}: <a href="#first-divergence">{first.key}</a> ({stepLabel((first.a ?? first.b)!)}
            {first.state === "changed" ? `: ${first.fields.map((field) => field.field).join(", ")} changed` : first.state === "only-a" ? ", only in A" : ", only in B"}).
          </p>
        ) : (
          <p className={styles.divergence} role="status">
            The runs agree step for step ({diff.pairs.length} steps).
          </p>
        )}
        <CompareTotals a={diff.a.totals} b={diff.b.totals} />
        {diff.input.length > 0 ? <ValueChangeList changes={diff.input} name="input" label="Input differences" /> : <p className={styles.sameNote}>Same input.</p>}
        {diff.outputs.length > 0 ? <ValueChangeList changes={diff.outputs} name="outputs" label="Output differences" /> : <p className={styles.sameNote}>Same outputs.</p>}
      </section>
      <section className={`card ${styles.panel}`} aria-labelledby="compare-steps">
        <h2 id="compare-steps">Steps</h2>
        <div className="table-scroll">
          <table className={styles.steps}>
            <caption>Steps of both runs, lined up by node and order</caption>
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">State</th>
                <th scope="col">Run A</th>
                <th scope="col">Run B</th>
                <th scope="col">Differences</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) =>
                row.kind === "pair" ? (
                  <StepPairRow key={row.pair.key} pair={row.pair} first={row.index === diff.firstDivergence} />
                ) : (
                  <tr key={`folded:${row.firstKey}`}>
                    <td colSpan={5} className={styles.sameNote}>
                      {row.count.toLocaleString("en-US")} identical steps ({row.firstKey} … {row.lastKey}) · <Link href={allHref}>Show every step</Link>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

function RunSideCard({ side, letter }: { side: RunSide; letter: "A" | "B" }) {
  const { run } = side;
  return (
    <section className={`card ${styles.panel} ${styles.side}`} aria-label={`Run ${letter}`}>
      <h2>
        Run {letter}: <Link href={`/runs/${encodeURIComponent(run.id)}`}>{run.id.slice(0, 8)}</Link>
      </h2>
      <p>{run.workflowName}</p>
      <p>
        <StatusBadge status={run.status} /> started <DateTime value={new Date(run.startedAt)} />
      </p>
      {run.error ? <p className="muted small">{run.error}</p> : null}
    </section>
  );
}
