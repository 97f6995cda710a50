"use client";

import { useEffect } from "react";
import { lastCallSequence, selectRunId } from "@/lib/store";
import type { RunProgress } from "@/lib/trace/browser";
import { useCanvas, useRunStatusStore } from "./canvas-context";

const liveStatuses = new Set(["queued", "pending", "running"]);

/** Each node's latest status and outputs, from the progress report. */
export function nodeStatuses(nodeRuns: RunProgress["nodeRuns"] = []): { byNode: Record<string, string>; outputs: Record<string, Record<string, unknown>> } {
  const byNode: Record<string, string> = {};
  const outputs: Record<string, Record<string, unknown>> = {};
  for (const nodeRun of nodeRuns) {
    byNode[nodeRun.nodeId] = nodeRun.status;
    if (Object.keys(nodeRun.outputs).length > 0) outputs[nodeRun.nodeId] = nodeRun.outputs;
  }
  return { byNode, outputs };
}

/**
 * Follows the canvas's current run through GET /api/runs/<id>/progress:
 * polls while it runs, asking only for the tool calls written since the
 * last poll, and puts each node's status and outputs, the run's tool calls
 * and its result in the run-status store. When the run ends, the notice
 * that announced it gives way to one saying how it ended. Stops when the
 * run ends or the canvas closes.
 */
export function useRunFollower(intervalMs = 500): void {
  const { stores } = useCanvas();
  const runId = useRunStatusStore(selectRunId);
  useEffect(() => {
    if (!runId) return;
    let stopped = false;
    let announcedWait = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const controller = new AbortController();
    const poll = async () => {
      try {
        const after = lastCallSequence(stores.runStatus.getState());
        const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/progress?after=${after}`, { cache: "no-store", signal: controller.signal });
        const report = (await response.json()) as Partial<RunProgress> & { error?: string };
        if (stopped) return;
        if (!response.ok || !report.run) {
          stores.runStatus.getState().failed(report.error ?? `The run's status could not be read (HTTP ${response.status}).`);
          return;
        }
        const status = report.run.status;
        // A run waiting for approval is not over: someone decides on the Approvals page and it goes on.
        const waiting = report.run.waitingForApproval ?? null;
        const finished = !liveStatuses.has(status) && !waiting;
        const result = finished && Object.hasOwn(report.run.outputs, "result") ? { value: report.run.outputs.result } : null;
        const nodes = nodeStatuses(report.nodeRuns);
        if (waiting) nodes.byNode[waiting.nodeId] = "waiting_for_approval";
        stores.runStatus.getState().reported({ status, ...nodes, result, newCalls: report.toolCalls ?? [], error: report.run.error, finished, waitingForApproval: waiting, stage: report.run.stage?.label ?? null });
        if (waiting && !announcedWait) stores.notices.getState().announce(`The run waits for approval of ${waiting.server}/${waiting.tool}: decide on the Approvals page.`, "info");
        announcedWait = Boolean(waiting);
        if (finished) announceEnd(status, report.run.error);
        else timer = setTimeout(poll, waiting ? intervalMs * 4 : intervalMs);
      } catch (error) {
        if (stopped) return;
        // A dropped connection is the world's fault, not the run's: try again a little later.
        timer = setTimeout(poll, intervalMs * 4);
        if ((error as Error).name !== "AbortError") console.warn("run status poll failed", error);
      }
    };
    const announceEnd = (status: string, error: string | null) => {
      const calls = stores.runStatus.getState().calls.length;
      const tally = `${calls} tool call${calls === 1 ? "" : "s"}`;
      if (status === "completed") stores.notices.getState().announce(`The run completed with ${tally}; the End shows its result.`, "success");
      else if (status === "cancelled") stores.notices.getState().announce("The run was cancelled.", "info");
      else stores.notices.getState().announce(`The run ${status.replace(/_/g, " ")}${error ? `: ${error}` : ""}.`, "error");
    };
    void poll();
    return () => {
      stopped = true;
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [runId, stores, intervalMs]);
}
