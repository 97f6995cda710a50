/** Durations as people read them: 54 ms, 1.25 s, 2 min 5 s. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

/** Milliseconds from `from` to `to` (ISO times); `to` null means the trace's "now". */
export function elapsed(from: string, to: string | null, now: string): number {
  return Math.max(0, Date.parse(to ?? now) - Date.parse(from));
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

/** Token usage of the turn that made a call, or null when the model reported none. */
export function formatTokens(inputTokens: number | null, outputTokens: number | null): string | null {
  if (inputTokens === null && outputTokens === null) return null;
  return `${(inputTokens ?? 0).toLocaleString("en-US")} in / ${(outputTokens ?? 0).toLocaleString("en-US")} out tokens`;
}
