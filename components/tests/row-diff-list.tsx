import Link from "next/link";
import { ValueChangeList } from "@/components/run/json-change-list";
import { jsonChanges } from "@/lib/trace/browser";

/** One side of a row: its verdict and outputs in one evaluation. */
export interface RowSide {
  runId: string | null;
  pass: boolean | null;
  score: number | null;
  outputs: Record<string, unknown> | null;
  reason: string;
}

export interface RowPair {
  position: number;
  line: number;
  input: Record<string, unknown>;
  a: RowSide;
  b: RowSide;
}

/**
 * The rows of two evaluations side by side: each row's verdict on A and on
 * B, and what changed in its outputs, word by word (the compare page's diff).
 */
export function RowDiffList({ pairs, labelA, labelB }: { pairs: readonly RowPair[]; labelA: string; labelB: string }) {
  return (
    <ol className="row-diffs" aria-label={`Rows that differ between ${labelA} and ${labelB}`}>
      {pairs.map((pair) => (
        <li key={pair.position} className="card">
          <h3>
            Row {pair.position + 1} <span className="small muted">(line {pair.line})</span>
          </h3>
          <p className="small">
            Input: <code>{JSON.stringify(pair.input)}</code>
          </p>
          <p>
            <Verdict side={pair.a} label={labelA} /> → <Verdict side={pair.b} label={labelB} />
          </p>
          {pair.b.reason && !pair.b.pass ? <p className="small muted">{labelB}: {pair.b.reason}</p> : null}
          <ValueChangeList changes={jsonChanges(pair.a.outputs ?? undefined, pair.b.outputs ?? undefined)} name="outputs" label={`Output changes of row ${pair.position + 1}`} />
        </li>
      ))}
    </ol>
  );
}

function Verdict({ side, label }: { side: RowSide; label: string }) {
  const text = side.pass === null ? "not scored" : `${side.pass ? "pass" : "fail"} ${side.score === null ? "" : side.score.toFixed(2)}`;
  return (
    <span>
      {label}: <span className={side.pass ? "badge badge-ok" : "badge badge-error"}>{text}</span>
      {side.runId ? (
        <>
          {" "}
          <Link href={`/runs/${side.runId}`} aria-label={`Run of row on ${label}`}>
            run
          </Link>
        </>
      ) : null}
    </span>
  );
}
