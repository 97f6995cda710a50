"use client";

import { useMemo } from "react";
import { upcomingFireTimes } from "./fire-times";

/** The next five fire times of a schedule Start, in its time zone; nothing while the schedule has a problem (the fields say which). */
export function ScheduleFireTimes({ nodeId, config }: { nodeId: string; config: Record<string, unknown> }) {
  const times = useMemo(() => upcomingFireTimes(config, new Date()), [config]);
  if (times.length === 0) return null;
  const zone = typeof config.timezone === "string" && config.timezone !== "" ? config.timezone : "UTC";
  return (
    <section className="schedule-fire-times" aria-label={`Next fire times of ${nodeId}`}>
      <h3>Next fire times</h3>
      <ol className="small">
        {times.map((time) => (
          <li key={time.iso}>
            <time dateTime={time.iso}>{time.inZone}</time> <span className="muted">{zone}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
