"use client";

import { useCallback, useRef } from "react";
import type { Workflow } from "@/lib/graph";
import { type CanvasEdge, type CanvasNode, toWorkflow } from "@/lib/store";
import { useCanvas } from "./canvas-context";

/**
 * A function that reads the document as a plain Workflow, made again only
 * when the nodes or edges changed: connection checks call it on every
 * pointer move while dragging an edge.
 */
export function useCurrentWorkflow(): () => Workflow {
  const { stores } = useCanvas();
  const cache = useRef<{ nodes: CanvasNode[]; edges: CanvasEdge[]; name: string; workflow: Workflow } | null>(null);
  return useCallback(() => {
    const state = stores.document.getState();
    const cached = cache.current;
    if (cached && cached.nodes === state.nodes && cached.edges === state.edges && cached.name === state.name) return cached.workflow;
    const workflow = toWorkflow(state);
    cache.current = { nodes: state.nodes, edges: state.edges, name: state.name, workflow };
    return workflow;
  }, [stores]);
}
