import type { FieldChanges, JsonChange, TextPart } from "@/lib/trace/browser";
import styles from "./run-compare.module.css";

/** The differences of one pair of steps, field by field: `arguments.value  26.2 → 5`. */
export function JsonChangeList({ fields, label }: { fields: readonly FieldChanges[]; label: string }) {
  return (
    <ul className={styles.changes} aria-label={label}>
      {fields.flatMap((field) =>
        field.changes.map((change, index) => (
          <li key={`${field.field}:${change.path}:${index}`}>
            <span className={styles.changePath}>{`${field.field}${change.path ? (change.path.startsWith("[") ? change.path : `.${change.path}`) : ""}`}</span>{" "}
            <ChangeValues change={change} />
          </li>
        )),
      )}
    </ul>
  );
}

/** A list of changes to one value (a run's input or outputs). */
export function ValueChangeList({ changes, name, label }: { changes: readonly JsonChange[]; name: string; label: string }) {
  return <JsonChangeList fields={[{ field: name, changes: [...changes] }]} label={label} />;
}

function ChangeValues({ change }: { change: JsonChange }) {
  switch (change.kind) {
    case "changed":
      if (change.text) return <TextChanges parts={change.text} />;
      return (
        <>
          <del className={styles.before}>{show(change.before)}</del> → <ins className={styles.after}>{show(change.after)}</ins>
        </>
      );
    case "added":
      return (
        <>
          only in B: <ins className={styles.after}>{show(change.after)}</ins>
        </>
      );
    case "removed":
      return (
        <>
          only in A: <del className={styles.before}>{show(change.before)}</del>
        </>
      );
  }
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** A changed text, word by word: removed words struck through, added words marked, the rest as it reads (no JSON escapes). */
function TextChanges({ parts }: { parts: readonly TextPart[] }) {
  return (
    <span className={styles.textChanges}>
      {parts.map((part, index) =>
        part.kind === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === "removed" ? (
          <del key={index} className={styles.before}>
            <span className="visually-hidden">removed: </span>
            {part.text}
          </del>
        ) : (
          <ins key={index} className={styles.after}>
            <span className="visually-hidden">added: </span>
            {part.text}
          </ins>
        ),
      )}
    </span>
  );
}
