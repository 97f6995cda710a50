"use client";

import { useEffect, useRef, useState } from "react";
import { lastSequence, mergeTrace } from "@/lib/trace/merge-trace";
import type { RunTrace } from "@/lib/trace/run-trace";

export const pollIntervalMs = 500;

/**
 * Follows a run while it is running: every ~500 ms it asks
 * GET /api/runs/<id>?after=<last row> for what changed (tool calls and
 * taint entries written since, node runs whole) and merges it in;
 * it stops once the run has ended. A failed poll is retried and reported,
 * never fatal. One request at a time: the next waits for the last.
 */
export function useLiveTrace(initial: RunTrace): { trace: RunTrace; pollError: string | null } {
  const [trace, setTrace] = useState(initial);
  const [pollError, setPollError] = useState<string | null>(null);
  const latest = useRef(trace);
  latest.current = trace;
  // A queued run is followed too: a worker takes it up in a moment.
  const running = trace.run.status === "running" || trace.run.status === "queued";
  const runId = trace.run.id;

  useEffect(() => {
    if (!running) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const response = await fetch(`/api/runs/${encodeURIComponent(runId)}?after=${lastSequence(latest.current.toolCalls, latest.current.taintRecords)}`, { cache: "no-store" });
        const body = (await response.json()) as RunTrace | { error: string };
        if (stopped) return;
        if (!response.ok || "error" in body) throw new Error("error" in body ? body.error : `the server answered ${response.status}`);
        const merged = mergeTrace(latest.current, body);
        latest.current = merged;
        setTrace(merged);
        setPollError(null);
        if (merged.run.status !== "running" && merged.run.status !== "queued") return;
      } catch (error) {
        if (stopped) return;
        setPollError(`Live updates paused: ${(error as Error).message}. Retrying…`);
      }
      timer = setTimeout(poll, pollIntervalMs);
    };
    timer = setTimeout(poll, pollIntervalMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [running, runId]);

  return { trace, pollError };
}
