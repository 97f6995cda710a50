"use client";

import { useState, useTransition } from "react";

/** One switch that pauses or resumes every webhook and schedule trigger of a workflow. */
export function TriggersPauseSwitch({
  workflowId,
  paused,
  canChange,
  setPaused,
}: {
  workflowId: string;
  paused: boolean;
  canChange: boolean;
  setPaused: (workflowId: string, paused: boolean) => Promise<{ ok: true } | { ok: false; error: string }>;
}) {
  const [value, setValue] = useState(paused);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <div className="field">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={value}
          disabled={!canChange || pending}
          aria-checked={value}
          onChange={(event) => {
            const next = event.currentTarget.checked;
            startTransition(async () => {
              const result = await setPaused(workflowId, next);
              if (result.ok) {
                setValue(next);
                setError(null);
              } else setError(result.error);
            });
          }}
        />{" "}
        Pause all triggers (webhook deliveries are refused with 409; schedules skip their ticks)
      </label>
      {!canChange ? <p className="small muted">An editor pauses and resumes them.</p> : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
