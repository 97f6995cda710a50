"use client";

import { useCallback } from "react";
import { type DrawnConnection, proposeConnection, type ProposedEdge } from "@/lib/canvas";
import { selectDocumentActions } from "@/lib/store";
import { useCanvas, useDocumentStore } from "./canvas-context";
import { useCurrentWorkflow } from "./use-current-workflow";

export type Drawn = { source: string; sourceHandle?: string | null; target: string; targetHandle?: string | null };

/**
 * Joining two handles, wherever it is asked for (a drag, two taps or
 * Enters on the canvas, the inspector's Connect form): `check` applies the
 * workflow's rules, `connect` adds the edge and says in the status line
 * what happened or why not.
 */
export function useConnect(): { check: (drawn: Drawn) => ProposedEdge; connect: (drawn: DrawnConnection) => boolean } {
  const { stores, nodeTypes } = useCanvas();
  const actions = useDocumentStore(selectDocumentActions);
  const currentWorkflow = useCurrentWorkflow();
  const announce = stores.notices.getState().announce;
  const check = useCallback(
    (drawn: Drawn) => proposeConnection(currentWorkflow(), nodeTypes, { ...drawn, sourceHandle: drawn.sourceHandle ?? null, targetHandle: drawn.targetHandle ?? null }),
    [currentWorkflow, nodeTypes],
  );
  const connect = useCallback(
    (drawn: DrawnConnection) => {
      const verdict = check(drawn);
      if (!verdict.ok) {
        announce(`Not connected: ${verdict.reason}`, "error");
        return false;
      }
      actions.addEdge(verdict.edge);
      if (verdict.warning) announce(`Connected, with a warning: ${verdict.warning}`, "warning");
      else announce(`Connected ${verdict.edge.source}.${verdict.edge.sourceHandle} to ${verdict.edge.target}.${verdict.edge.targetHandle} (${verdict.edge.kind} edge).`, "success");
      return true;
    },
    [actions, announce, check],
  );
  return { check, connect };
}
