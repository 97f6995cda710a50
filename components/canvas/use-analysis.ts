"use client";

import { useEffect } from "react";
import { analyseWorkflow } from "@/lib/canvas";
import { selectContentRevision } from "@/lib/store";
import { useCanvas, useDocumentStore } from "./canvas-context";
import { useCurrentWorkflow } from "./use-current-workflow";

/** Re-runs validation and the tool costs after each edit that is not a move, a beat later so typing stays fluid. */
export function useAnalysis(delayMs = 120): void {
  const { stores, nodeTypes, entries } = useCanvas();
  const revision = useDocumentStore(selectContentRevision);
  const currentWorkflow = useCurrentWorkflow();
  useEffect(() => {
    if (stores.analysis.getState().revision === revision) return;
    const timer = setTimeout(() => stores.analysis.getState().analysed(analyseWorkflow(currentWorkflow(), nodeTypes, entries), revision), delayMs);
    return () => clearTimeout(timer);
  }, [revision, stores, nodeTypes, entries, currentWorkflow, delayMs]);
}
