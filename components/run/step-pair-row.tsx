import { type StepPair, stepLabel, type RunStep } from "@/lib/trace/browser";
import { formatDuration } from "./format";
import { JsonChangeList } from "./json-change-list";
import { StatusBadge } from "./status-badge";
import styles from "./run-compare.module.css";

const stateLabels: Record<StepPair["state"], string> = { same: "Same", changed: "Changed", "only-a": "Only in A", "only-b": "Only in B" };

/** One row of the compare table: a step of run A beside the same step of run B, and what differs. */
export function StepPairRow({ pair, first }: { pair: StepPair; first: boolean }) {
  const depth = (pair.a ?? pair.b)!.depth;
  return (
    <tr className={first ? styles.first : undefined} id={first ? "first-divergence" : undefined} data-state={pair.state}>
      <th scope="row" className={styles.stepKey} style={{ paddingLeft: `${0.6 + depth * 1.1}rem` }}>
        {pair.key}
      </th>
      <td>
        <span className={styles.state} data-state={pair.state}>
          {first ? "First divergence: " : ""}
          {stateLabels[pair.state]}
        </span>
      </td>
      <td>{pair.a ? <StepCell step={pair.a} /> : <span className={styles.sameNote}>—</span>}</td>
      <td>{pair.b ? <StepCell step={pair.b} /> : <span className={styles.sameNote}>—</span>}</td>
      <td>{pair.fields.length > 0 ? <JsonChangeList fields={pair.fields} label={`Differences at ${pair.key}`} /> : null}</td>
    </tr>
  );
}

function StepCell({ step }: { step: RunStep }) {
  return (
    <>
      <span>{stepLabel(step)}</span>{" "}
      {step.kind === "node" ? <StatusBadge status={step.status} /> : null}
      {step.kind === "tool-call" && step.isError ? <span className="badge badge-error">error</span> : null}
      {step.replayedFrom ? (
        <a className="chip" href={`/runs/${step.replayedFrom.runId}${step.replayedFrom.callId ? `?call=${step.replayedFrom.callId}` : ""}`} title={`Replayed from the journal of run ${step.replayedFrom.runId.slice(0, 8)}: no model or tool called`}>
          replayed
        </a>
      ) : null}
      <span className="muted small"> {step.durationMs === null ? "running" : formatDuration(step.durationMs)}</span>
    </>
  );
}
