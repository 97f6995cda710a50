"use client";

import { useReactFlow, useStoreApi } from "@xyflow/react";
import { useCallback } from "react";
import { uniqueId } from "@/lib/canvas";
import { lookupNodeType, nodeHandles, type NodeTypes, type WorkflowNode } from "@/lib/graph";
import { useCanvas } from "./canvas-context";

/** The size a node is assumed to have before it is measured, to centre it where it is dropped. */
const assumedSize = { width: 240, height: 110 };

/**
 * Adds a node of a type to the canvas and selects it (so the inspector
 * opens on it): at a flow position (a drop), or in the middle of what the
 * canvas shows (the palette's Add button), a little further along each time
 * so nodes added in a row do not stack.
 */
export function useAddNode(): (type: string, at?: { x: number; y: number }) => string | null {
  const { stores, entries, nodeTypes } = useCanvas();
  const flow = useStoreApi();
  const { setCenter } = useReactFlow();
  return useCallback(
    (type, at) => {
      const entry = entries.get(type);
      if (!entry?.usable) return null;
      const { nodes, actions } = stores.document.getState();
      const id = uniqueId(type, new Set(nodes.map((node) => node.id)));
      let position = at ? { x: at.x - assumedSize.width / 2, y: at.y - assumedSize.height / 2 } : null;
      if (!position) {
        const { width, height, transform } = flow.getState();
        const [x, y, zoom] = transform;
        const centre = { x: (width / 2 - x) / zoom - assumedSize.width / 2, y: (height / 2 - y) / zoom - assumedSize.height / 2 };
        // The document's nodes, not React Flow's: a node added a moment ago may not be drawn yet.
        const boxes = nodes.map((node): Box => {
          const measured = node.measured;
          const size = measured?.width && measured.height ? { width: measured.width, height: measured.height } : estimatedSize(nodeTypes, node.data);
          return { ...node.position, ...size };
        });
        position = freeSpot(centre, boxes, estimatedSize(nodeTypes, { type, config: {} }));
        // Pushed out of sight by the nodes already there: bring it into view, as n8n does.
        const [left, top] = [position.x * zoom + x, position.y * zoom + y];
        if (left < 0 || top < 0 || left + assumedSize.width * zoom > width || top + assumedSize.height * zoom > height) {
          void setCenter(position.x + assumedSize.width / 2, position.y + assumedSize.height / 2, { zoom, duration: 0 });
        }
      }
      const node: WorkflowNode = { id, type, position: { x: Math.round(position.x), y: Math.round(position.y) }, config: {} };
      actions.addElements([node]);
      stores.notices.getState().announce(`Added ${entry.title} as node “${id}”.`, "success");
      return id;
    },
    [stores, entries, nodeTypes, flow, setCenter],
  );
}

type Box = { x: number; y: number; width: number; height: number };

/** The first place at or below `start` where a node of `size` overlaps no other, as n8n avoids stacking added nodes. */
function freeSpot(start: { x: number; y: number }, boxes: Box[], size: { width: number; height: number }): { x: number; y: number } {
  const gap = 24;
  let spot = start;
  for (let attempt = 0; attempt < 50; attempt++) {
    const hit = boxes.find((box) => spot.x < box.x + box.width + gap && spot.x + size.width + gap > box.x && spot.y < box.y + box.height + gap && spot.y + size.height + gap > box.y);
    if (!hit) return spot;
    spot = { x: spot.x, y: hit.y + hit.height + gap };
  }
  return spot;
}

/** A node's size before React Flow has measured it, from its rows of ports and connectors (see workflow-node.tsx). */
function estimatedSize(nodeTypes: NodeTypes, data: { type: string; config: Record<string, unknown> }): { width: number; height: number } {
  const info = lookupNodeType(nodeTypes, data.type);
  if (!info) return assumedSize;
  const handles = nodeHandles({ config: data.config }, info);
  const count = (role: string) => handles.filter((handle) => handle.role === role).length;
  const rows = Math.max(count("input"), count("output"));
  const connectorRows = (count("provider") > 0 ? 1 : 0) + (count("consumer") + count("task") > 0 ? 1 : 0);
  return { width: assumedSize.width, height: 60 + rows * 20 + connectorRows * 20 + (info.hasToolExchange ? 20 : 0) };
}

/** The drag-and-drop payload type of a palette item. */
export const paletteMimeType = "application/x-switchboard-node-type";
