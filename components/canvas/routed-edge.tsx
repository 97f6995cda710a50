"use client";

import { useSmartEdgePath } from "@tisoap/react-flow-smart-edge";
import { BaseEdge, type EdgeProps, EdgeText, getSmoothStepPath, type ReactFlowState, useStore } from "@xyflow/react";
import { memo, useMemo } from "react";
import { type Box, edgeLabelPoint, pathCorners } from "@/lib/canvas";
import type { CanvasEdge } from "@/lib/store";

/** The approval badge's box, a little larger than its text at 10 px (canvas.css), for finding it a place clear of nodes. */
const labelBox = { width: 150, height: 22 };
const borderRadius = 8;

const selectNodeBoxes = (state: ReactFlowState): Box[] =>
  [...state.nodeLookup.values()].map((node) => ({
    x: node.internals.positionAbsolute.x,
    y: node.internals.positionAbsolute.y,
    width: node.measured.width ?? 0,
    height: node.measured.height ?? 0,
  }));

/**
 * An edge drawn orthogonally around the nodes in its way: its path comes
 * from the smart-edge router (components/canvas/edge-routing.tsx); until
 * it has one, or when the straight way is clear, the plain step path.
 */
export const RoutedEdge = memo(function RoutedEdge(props: EdgeProps<CanvasEdge>) {
  const { id, source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, label, markerEnd, style, interactionWidth } = props;
  const { route } = useSmartEdgePath({ id, source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, preset: "smoothstep" });
  const path = route?.kind === "routed" ? route.svgPathString : getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, borderRadius })[0];
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={style} interactionWidth={interactionWidth} />
      {label ? <EdgeBadge path={path} text={String(label)} /> : null}
    </>
  );
});

/** The edge's label (an approval policy), on its path where it covers no node. */
function EdgeBadge({ path, text }: { path: string; text: string }) {
  const nodes = useStore(selectNodeBoxes, sameBoxes);
  const at = useMemo(() => edgeLabelPoint(pathCorners(path), labelBox, nodes), [path, nodes]);
  return <EdgeText x={at.x} y={at.y} label={text} labelShowBg labelBgPadding={[4, 2]} labelBgBorderRadius={4} />;
}

function sameBoxes(a: Box[], b: Box[]): boolean {
  return a.length === b.length && a.every((box, index) => box.x === b[index].x && box.y === b[index].y && box.width === b[index].width && box.height === b[index].height);
}
