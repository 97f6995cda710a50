import type { SaveStatus } from "./use-autosave";

const timeFormat = new Intl.DateTimeFormat("en-GB", { timeStyle: "short" });

/** Where the autosave stands, announced politely. */
export function SaveStatusView({ status }: { status: SaveStatus }) {
  const text =
    status.state === "saved"
      ? status.savedAt
        ? `All changes saved (${timeFormat.format(new Date(status.savedAt))})`
        : "All changes saved"
      : status.state === "saving"
        ? "Saving…"
        : status.state === "unsaved"
          ? "Unsaved changes"
          : `Not saved: ${status.error}`;
  return (
    <span className={`save-status save-${status.state}`} role="status" aria-live="polite" aria-label="Save status">
      {text}
    </span>
  );
}
