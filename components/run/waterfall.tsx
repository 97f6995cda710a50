import { formatDuration } from "./format";
import styles from "./run.module.css";

/** The run's time frame: every bar is placed relative to it. */
export interface Timeline {
  /** The run's start (ms since the epoch). */
  start: number;
  /** The run's length so far (ms, at least 1). */
  span: number;
}

/** The run's frame: from its start to its end (or now), stretched to the last call's end should one end later. */
export function timelineOf(runStartedAt: string, runEndedAt: string | null, now: string, lastCallEndAt: string | null = null): Timeline {
  const start = Date.parse(runStartedAt);
  const end = Math.max(Date.parse(runEndedAt ?? now), lastCallEndAt ? Date.parse(lastCallEndAt) : 0);
  return { start, span: Math.max(1, end - start) };
}

/**
 * One bar of the waterfall: where it starts and how long it takes, as a
 * share of the run. The times are its accessible name (and its tooltip).
 */
export function WaterfallBar({ timeline, startedAt, durationMs, name, tone }: { timeline: Timeline; startedAt: string; durationMs: number; name: string; tone: "node" | "call" | "error" | "running" | "turn" | "wait" }) {
  const offset = Math.max(0, Date.parse(startedAt) - timeline.start);
  const left = Math.min(100, (offset / timeline.span) * 100);
  const width = Math.min(100 - left, (durationMs / timeline.span) * 100);
  const description = `${name}: starts at ${formatDuration(offset)}, takes ${formatDuration(durationMs)}, ends at ${formatDuration(offset + durationMs)}`;
  return (
    <div className={styles.track}>
      <div role="img" aria-label={description} title={description} className={`${styles.bar} ${styles[`bar-${tone}`]}`} style={{ left: `${left}%`, width: `max(${width}%, 2px)` }} />
    </div>
  );
}

/** The time axis above the waterfall: 0, a quarter, half, three quarters, the whole run. */
export function TimeAxis({ timeline }: { timeline: Timeline }) {
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <div className={styles.axis} aria-hidden="true">
      {ticks.map((share) => (
        <span key={share} className={styles.tick} style={{ left: `${share * 100}%` }}>
          {formatDuration(share * timeline.span)}
        </span>
      ))}
    </div>
  );
}
