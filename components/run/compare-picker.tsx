import type { RunSummary } from "@/lib/trace/browser";
import styles from "./run-compare.module.css";

export interface ComparePickerProps {
  runs: readonly RunSummary[];
  a: string;
  b: string;
  /** The side a refusal named: its field is marked invalid and points at the message. */
  invalid?: { field: "a" | "b"; messageId: string };
}

/** Two run ids (typed, or chosen from the recent runs) and a Compare button: a plain GET form, so a comparison is a link. */
export function ComparePicker({ runs, a, b, invalid }: ComparePickerProps) {
  return (
    <form className={`card ${styles.panel} ${styles.picker}`} method="get" action="/runs/compare" aria-label="Choose two runs">
      <PickerField name="a" label="Run A" value={a} invalid={invalid} />
      <PickerField name="b" label="Run B" value={b} invalid={invalid} />
      <datalist id="compare-recent-runs">
        {runs.map((run) => (
          <option key={run.id} value={run.id}>{`${run.workflowName} · ${run.status} · ${run.startedAt.slice(0, 19).replace("T", " ")}`}</option>
        ))}
      </datalist>
      <button type="submit" className="button">
        Compare
      </button>
    </form>
  );
}

function PickerField({ name, label, value, invalid }: { name: "a" | "b"; label: string; value: string; invalid?: ComparePickerProps["invalid"] }) {
  const wrong = invalid?.field === name;
  return (
    <div className={styles.pickerField}>
      <label htmlFor={`compare-${name}`}>{label}</label>
      <input
        id={`compare-${name}`}
        name={name}
        type="text"
        list="compare-recent-runs"
        autoComplete="off"
        placeholder="a run id"
        defaultValue={value}
        aria-invalid={wrong || undefined}
        aria-describedby={wrong ? invalid.messageId : undefined}
      />
    </div>
  );
}
