import type { QuestionField } from "@/lib/questions/question-fields";
import styles from "./questions.module.css";

const inputTypes = { email: "email", uri: "url", date: "date", "date-time": "text" } as const;

/** One generated field: its label (the property's title), its description, and the control its kind calls for. */
export function QuestionFieldInput({ field, id, error }: { field: QuestionField; id: string; error?: string }) {
  const described = [field.description ? `${id}-description` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = { id, name: field.name, "aria-describedby": described, "aria-invalid": error ? true : undefined };
  const notes = (
    <>
      {field.description ? (
        <span id={`${id}-description`} className={styles.description}>
          {field.description}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className={styles.fieldError}>
          {error}
        </span>
      ) : null}
    </>
  );
  if (field.kind === "choices") {
    return (
      <fieldset className={styles.field} aria-describedby={described}>
        <legend>
          {field.label}
          {field.required ? " (required)" : ""}
        </legend>
        {field.options.map((option) => (
          <label key={option.value} className={styles.check}>
            <input type="checkbox" name={field.name} value={option.value} defaultChecked={field.default?.includes(option.value)} /> {option.label}
          </label>
        ))}
        {notes}
      </fieldset>
    );
  }
  if (field.kind === "boolean") {
    return (
      <div className={styles.field}>
        <label className={styles.check}>
          <input type="checkbox" value="true" defaultChecked={field.default} {...common} /> {field.label}
        </label>
        {notes}
      </div>
    );
  }
  const label = (
    <label htmlFor={id}>
      {field.label}
      {field.required ? " (required)" : ""}
    </label>
  );
  if (field.kind === "choice") {
    return (
      <div className={styles.field}>
        {label}
        <select required={field.required} defaultValue={field.default ?? ""} {...common}>
          {field.required && field.default !== undefined ? null : <option value="">(none)</option>}
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {notes}
      </div>
    );
  }
  if (field.kind === "number") {
    return (
      <div className={styles.field}>
        {label}
        <input type="number" step={field.integer ? 1 : "any"} min={field.minimum} max={field.maximum} required={field.required} defaultValue={field.default} {...common} />
        {notes}
      </div>
    );
  }
  return (
    <div className={styles.field}>
      {label}
      <input type={field.format ? inputTypes[field.format] : "text"} minLength={field.minLength} maxLength={field.maxLength} required={field.required} defaultValue={field.default} {...common} />
      {notes}
    </div>
  );
}
