import type { RunTotals } from "@/lib/trace/browser";
import { formatDuration } from "./format";
import styles from "./run-compare.module.css";

const rows: Array<{ label: string; value: (totals: RunTotals) => number | null; show: (value: number) => string }> = [
  { label: "Model turns", value: (totals) => totals.turns, show: count },
  { label: "Tool calls", value: (totals) => totals.toolCalls, show: count },
  { label: "Input tokens", value: (totals) => totals.inputTokens, show: count },
  { label: "Output tokens", value: (totals) => totals.outputTokens, show: count },
  { label: "Time", value: (totals) => totals.durationMs, show: formatDuration },
  { label: "Cost", value: (totals) => totals.costUsd, show: (value) => `$${value.toFixed(4)}` },
];

/** What each run spent, with B's difference from A; "–" where a figure is not known. */
export function CompareTotals({ a, b }: { a: RunTotals; b: RunTotals }) {
  return (
    <table className={styles.totals}>
      <caption>Totals</caption>
      <thead>
        <tr>
          <th scope="col">Figure</th>
          <th scope="col">Run A</th>
          <th scope="col">Run B</th>
          <th scope="col">B − A</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const left = row.value(a);
          const right = row.value(b);
          const change = left !== null && right !== null ? right - left : null;
          return (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>{left === null ? "–" : row.show(left)}</td>
              <td>{right === null ? "–" : row.show(right)}</td>
              <td>{change === null ? "–" : change === 0 ? "same" : `${change > 0 ? "+" : "−"}${row.show(Math.abs(change))}`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}
