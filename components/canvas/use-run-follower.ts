"use client";

import { useEffect } from "react";
import { selectRunId } from "@/lib/store";
import { useCanvas, useRunStatusStore } from "./canvas-context";

/** What the canvas reads from GET /api/runs/<id> (the RunTrace JSON); anything else in it is ignored. */
interface RunReport {
  run?: { status?: string; error?: string | null };
  nodeRuns?: { nodeId?: string; status?: string }[];
  error?: string;
}

const liveStatuses = new Set(["queued", "pending", "running"]);

/** The latest status of each node: a node that ran more than once (a task called twice) shows running while any run of it is. */
export function nodeStatuses(nodeRuns: RunReport["nodeRuns"] = []): Record<string, string> {
  const byNode: Record<string, string> = {};
  for (const nodeRun of nodeRuns) {
    if (!nodeRun.nodeId || !nodeRun.status) continue;
    if (byNode[nodeRun.nodeId] === "running") continue;
    byNode[nodeRun.nodeId] = nodeRun.status;
  }
  return byNode;
}

/**
 * Follows the canvas's current run: polls its status while it runs and puts
 * each node's status in the run-status store, so every node shows it live.
 * Stops when the run ends or the canvas closes.
 */
export function useRunFollower(intervalMs = 500): void {
  const { stores } = useCanvas();
  const runId = useRunStatusStore(selectRunId);
  useEffect(() => {
    if (!runId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const controller = new AbortController();
    const poll = async () => {
      try {
        // Only the statuses are needed: `after` far past the end leaves the tool calls out.
        const response = await fetch(`/api/runs/${encodeURIComponent(runId)}?after=${Number.MAX_SAFE_INTEGER}`, { cache: "no-store", signal: controller.signal });
        const report = (await response.json()) as RunReport;
        if (stopped) return;
        if (!response.ok) {
          stores.runStatus.getState().failed(report.error ?? `The run's status could not be read (HTTP ${response.status}).`);
          return;
        }
        const status = report.run?.status ?? "running";
        const finished = !liveStatuses.has(status);
        stores.runStatus.getState().reported({ status, byNode: nodeStatuses(report.nodeRuns), error: report.run?.error ?? null, finished });
        if (!finished) timer = setTimeout(poll, intervalMs);
      } catch (error) {
        if (stopped) return;
        // A dropped connection is the world's fault, not the run's: try again a little later.
        timer = setTimeout(poll, intervalMs * 4);
        if ((error as Error).name !== "AbortError") console.warn("run status poll failed", error);
      }
    };
    void poll();
    return () => {
      stopped = true;
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [runId, stores, intervalMs]);
}
