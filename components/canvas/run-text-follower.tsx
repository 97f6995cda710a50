"use client";

import { useEffect } from "react";
import { selectRunFinished, selectRunId } from "@/lib/store";
import { latestTextByNode, useRunStream } from "@/components/run/use-run-stream";
import { useCanvas, useRunStatusStore } from "./canvas-context";

/**
 * While the canvas's run runs, follows its stream (GET /api/runs/<id>/stream,
 * as the run page does) and puts each agent's text so far in the run-status
 * store, where the agent's node shows it growing. Draws nothing.
 */
export function RunTextFollower() {
  const runId = useRunStatusStore(selectRunId);
  const finished = useRunStatusStore(selectRunFinished);
  return runId && !finished ? <StreamOfRun key={runId} runId={runId} /> : null;
}

function StreamOfRun({ runId }: { runId: string }) {
  const { stores } = useCanvas();
  const { parts } = useRunStream(runId);
  useEffect(() => {
    stores.runStatus.getState().liveTextChanged(latestTextByNode(parts));
  }, [parts, stores]);
  return null;
}
