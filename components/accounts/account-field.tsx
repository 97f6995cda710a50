import type { FormState } from "@/components/servers/action-types";

/** A labelled input of an accounts form, with the answer's error when it names this field. */
export function AccountField({
  name,
  label,
  type = "text",
  autoComplete,
  state,
  hint,
}: {
  name: string;
  label: string;
  type?: "text" | "email" | "password";
  autoComplete?: string;
  state: FormState;
  hint?: string;
}) {
  const id = `account-${name}`;
  const error = state && !state.ok && state.field === name ? state.error : null;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type={type} autoComplete={autoComplete} required aria-invalid={error ? true : undefined} aria-describedby={described} />
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The answer of a form that is not about one field: an error, or the success message. */
export function FormAnswer({ state }: { state: FormState }) {
  if (!state) return null;
  if (!state.ok) {
    return state.field ? null : (
      <p className="notice notice-error" role="alert">
        {state.error}
      </p>
    );
  }
  return state.message ? (
    <p className="notice-ok" role="status">
      {state.message}
    </p>
  ) : null;
}
