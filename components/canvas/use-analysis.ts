"use client";

import { useEffect, useRef } from "react";
import { analyseWorkflow } from "@/lib/canvas";
import { selectContentRevision, selectServersById, selectServerTools } from "@/lib/store";
import { useCanvas, useDocumentStore, useServerStore } from "./canvas-context";
import { useCurrentWorkflow } from "./use-current-workflow";

/**
 * Re-runs validation and the tool costs after each edit that is not a move,
 * a beat later so typing stays fluid, and when a server's tools arrive.
 */
export function useAnalysis(delayMs = 120): void {
  const { stores, nodeTypes, entries } = useCanvas();
  const revision = useDocumentStore(selectContentRevision);
  const tools = useServerStore(selectServerTools);
  // A server granted on the canvas changes what the analysis says about its nodes.
  const byId = useServerStore(selectServersById);
  const currentWorkflow = useCurrentWorkflow();
  const analysedTools = useRef(tools);
  const analysedServers = useRef(byId);
  useEffect(() => {
    if (stores.analysis.getState().revision === revision && analysedTools.current === tools && analysedServers.current === byId) return;
    const timer = setTimeout(() => {
      analysedTools.current = tools;
      analysedServers.current = byId;
      const servers = { servers: stores.servers.getState().byId, tools };
      stores.analysis.getState().analysed(analyseWorkflow(currentWorkflow(), nodeTypes, entries, servers), revision);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [revision, tools, byId, stores, nodeTypes, entries, currentWorkflow, delayMs]);
}
