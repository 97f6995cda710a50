"use client";

import { useConnection } from "@xyflow/react";
import { useEffect, useRef } from "react";
import { proposeConnection } from "@/lib/canvas";
import { useCanvas } from "./canvas-context";
import { useCurrentWorkflow } from "./use-current-workflow";

const handleSelector = ".react-flow__handle[data-nodeid][data-handleid]";

/**
 * While an edge is being drawn: every handle it could end on is marked
 * compatible (highlighted) or incompatible (dimmed), checked once when the
 * drag starts by the same rules as the drop; over an incompatible handle,
 * the reason follows the pointer. Classes are set on the handles' elements
 * directly, so a drag re-renders no node.
 */
export function ConnectionHints() {
  const connection = useConnection();
  const { nodeTypes } = useCanvas();
  const currentWorkflow = useCurrentWorkflow();
  const reasons = useRef(new Map<string, string>());
  const from = connection.inProgress ? `${connection.fromHandle.nodeId}\u0000${connection.fromHandle.id ?? ""}` : null;

  useEffect(() => {
    const root = document.querySelector<HTMLElement>(".workflow-canvas");
    if (!root || !from) return;
    const [nodeId, handleId] = from.split("\u0000");
    const workflow = currentWorkflow();
    reasons.current.clear();
    root.classList.add("is-connecting");
    const marked = [...root.querySelectorAll<HTMLElement>(handleSelector)];
    for (const element of marked) {
      const target = { nodeId: element.dataset.nodeid ?? "", handleId: element.dataset.handleid ?? "" };
      if (target.nodeId === nodeId && target.handleId === handleId) continue;
      const verdict = proposeConnection(workflow, nodeTypes, { source: nodeId, sourceHandle: handleId, target: target.nodeId, targetHandle: target.handleId });
      element.classList.add(verdict.ok ? "is-compatible" : "is-incompatible");
      if (!verdict.ok) reasons.current.set(`${target.nodeId}\u0000${target.handleId}`, verdict.reason);
    }
    return () => {
      root.classList.remove("is-connecting");
      for (const element of marked) element.classList.remove("is-compatible", "is-incompatible");
    };
  }, [from, currentWorkflow, nodeTypes]);

  if (!connection.inProgress || !connection.toHandle || connection.isValid !== false) return null;
  const reason = reasons.current.get(`${connection.toHandle.nodeId}\u0000${connection.toHandle.id ?? ""}`);
  if (!reason) return null;
  return <ConnectionReason reason={reason} at={connection.pointer} />;
}

/** Why a connection is refused, next to the pointer. Visual only: the canvas's status line announces the same words. */
export function ConnectionReason({ reason, at }: { reason: string; at: { x: number; y: number } }) {
  return (
    <div className="connection-reason" style={{ left: at.x + 16, top: at.y + 16 }} aria-hidden="true">
      {reason}
    </div>
  );
}
