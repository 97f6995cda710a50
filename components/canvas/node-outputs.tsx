"use client";

import { useMemo } from "react";
import { nodeRunOutputs, selectRunResult } from "@/lib/store";
import { useRunStatusStore } from "./canvas-context";
import { ValuePreview } from "./value-preview";

/**
 * What a node put out in the run the canvas follows, one preview per output
 * (the full value on click); the End shows the run's result instead.
 */
export function NodeOutputs({ id, type }: { id: string; type: string }) {
  const outputs = useRunStatusStore(useMemo(() => nodeRunOutputs(id), [id]));
  const result = useRunStatusStore(selectRunResult);
  if (type === "end") {
    if (!result) return null;
    return (
      <div className="wf-node-outputs" aria-label={`Result of the run at ${id}`} role="group">
        <ValuePreview name="result" value={result.value} owner="the run" />
      </div>
    );
  }
  const entries = outputs ? Object.entries(outputs).filter(([name]) => name !== "started") : [];
  if (entries.length === 0) return null;
  return (
    <div className="wf-node-outputs" aria-label={`Outputs of ${id}`} role="group">
      {entries.map(([name, value]) => (
        <ValuePreview key={name} name={name} value={value} owner={id} />
      ))}
    </div>
  );
}
