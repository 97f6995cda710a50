"use client";

import { Handle, Position } from "@xyflow/react";
import { type CSSProperties, type KeyboardEvent, memo } from "react";
import { handleId } from "@/lib/canvas";
import type { NodeHandle } from "@/lib/graph";

const side: Record<NodeHandle["role"], Position> = {
  input: Position.Left,
  output: Position.Right,
  provider: Position.Top,
  consumer: Position.Bottom,
  task: Position.Bottom,
};

/**
 * One handle of a node, named for screen readers and reachable by Tab:
 * Enter on one handle, then Enter on another, connects them (React Flow's
 * click-to-connect), so wiring needs no mouse. A port whose neighbours are
 * closer than 24 px on screen leaves the Tab order (`inTabOrder` false,
 * handle-target.ts); the inspector's Connect form does its work then.
 */
export const NodeHandleView = memo(function NodeHandleView({
  handle,
  nodeId,
  style,
  inTabOrder = true,
}: {
  handle: NodeHandle;
  nodeId: string;
  style?: CSSProperties;
  inTabOrder?: boolean;
}) {
  const sourceLike = handle.role === "output" || handle.role === "provider" || handle.role === "task";
  return (
    <Handle
      id={handleId(handle.role, handle.name)}
      type={sourceLike ? "source" : "target"}
      position={side[handle.role]}
      className={`wf-handle wf-handle-${handle.role}${handle.port ? ` wf-port-${handle.port.type}` : ""}`}
      style={style}
      role="button"
      tabIndex={inTabOrder ? 0 : undefined}
      aria-label={handleLabel(handle, nodeId)}
      title={handleLabel(handle, nodeId)}
      onKeyDown={clickOnEnter}
    />
  );
});

function clickOnEnter(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  event.stopPropagation();
  event.currentTarget.click();
}

/** E.g. `Input "prompt" (string) of agent`, `Tool socket "mcpService" of agent (consumes tools)`. */
export function handleLabel(handle: NodeHandle, nodeId: string): string {
  switch (handle.role) {
    case "input":
      return `Input "${handle.name}" (${handle.port?.type ?? "any"}) of ${nodeId}`;
    case "output":
      return `Output "${handle.name}" (${handle.port?.type ?? "any"}) of ${nodeId}`;
    case "provider":
      return `Tool provider "${handle.name}" of ${nodeId} (offers tools)`;
    case "consumer":
      return `Tool socket "${handle.name}" of ${nodeId} (consumes tools)`;
    case "task":
      return `Task handle of ${nodeId} (offers the sub-flow as a tool)`;
  }
}
