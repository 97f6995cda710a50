import styles from "./run.module.css";

/**
 * A value as pretty-printed JSON in a scrollable, focusable block (keyboard
 * users can scroll it); a string that is not JSON is shown as the text it is.
 */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const text = typeof value === "string" && looksLikeJson(value) === null;
  return (
    <pre className={`${styles.json}${text ? ` ${styles.text}` : ""}`} tabIndex={0} role="region" aria-label={label}>
      <code>{text ? (value as string) : prettyJson(value)}</code>
    </pre>
  );
}

export function prettyJson(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "string") return looksLikeJson(value) ?? JSON.stringify(value);
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

// MCP tools often answer with JSON inside a text block: show it as JSON.
function looksLikeJson(text: string): string | null {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return null;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return null;
  }
}
