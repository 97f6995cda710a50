"use client";

import { useReactFlow, useStoreApi } from "@xyflow/react";
import { useCallback } from "react";
import { uniqueId } from "@/lib/canvas";
import { lookupNodeType, mcpServerChoice, mcpServerNodeType, nodeHandles, type NodeTypes, type WorkflowNode } from "@/lib/graph";
import { useCanvas } from "./canvas-context";

/** The size a node is assumed to have before it is measured, to centre it where it is dropped. */
const assumedSize = { width: 240, height: 110 };

/**
 * Adds a node of a type (with a starting config: an MCP server node names
 * its server) to the canvas and selects it, so the inspector opens on it:
 * at a flow position (a drop), or in the free space nearest the middle of
 * what the canvas shows (the palette's Add button), so nodes added in a row
 * neither stack nor overlap.
 */
export function useAddNode(): (type: string, at?: { x: number; y: number }, config?: Record<string, unknown>) => string | null {
  const { stores, entries, nodeTypes, listServerTools } = useCanvas();
  const flow = useStoreApi();
  const { setCenter } = useReactFlow();
  return useCallback(
    (type, at, config = {}) => {
      const entry = entries.get(type);
      if (!entry?.usable) return null;
      const { nodes, actions } = stores.document.getState();
      const server = mcpServerChoice({ type, config });
      const id = uniqueId(server?.serverId ?? type, new Set(nodes.map((node) => node.id)));
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
      // A new Start comes with one input field, so the run form has something to ask.
      const initial = type === "start" && Object.keys(config).length === 0 ? { inputs: [{ name: "input", type: "string", required: true }] } : config;
      const node: WorkflowNode = { id, type, position: { x: Math.round(position.x), y: Math.round(position.y) }, config: initial };
      actions.addElements([node]);
      if (server) listServerTools([server.serverId]);
      const title = type === mcpServerNodeType && server ? `the MCP server ${stores.servers.getState().byId.get(server.serverId)?.name ?? server.serverId}` : entry.title;
      stores.notices.getState().announce(`Added ${title} as node “${id}”.`, "success");
      return id;
    },
    [stores, entries, nodeTypes, flow, setCenter, listServerTools],
  );
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * The free place nearest `start` for a node of `size`: candidates on a grid
 * around it, ring by ring, nearest first (to the right before below, left
 * or above), so added nodes spread around the middle of the view instead of
 * stacking in a column.
 */
export function freeSpot(start: { x: number; y: number }, boxes: readonly Box[], size: { width: number; height: number }): { x: number; y: number } {
  const gap = 32;
  const step = { x: size.width + gap, y: Math.max(size.height, 80) + gap };
  const free = (spot: { x: number; y: number }) =>
    !boxes.some((box) => spot.x < box.x + box.width + gap && spot.x + size.width + gap > box.x && spot.y < box.y + box.height + gap && spot.y + size.height + gap > box.y);
  for (let ring = 0; ring <= 12; ring++) {
    const candidates: { x: number; y: number; distance: number }[] = [];
    for (let dx = -ring; dx <= ring; dx++) {
      for (let dy = -ring; dy <= ring; dy++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== ring) continue;
        // Right of the middle first (the flow runs left to right), then below, then left and above.
        candidates.push({ x: start.x + dx * step.x, y: start.y + dy * step.y, distance: Math.abs(dx) + Math.abs(dy) * 1.01 + (dx < 0 ? 0.5 : 0) + (dy < 0 ? 0.3 : 0) });
      }
    }
    const found = candidates.sort((a, b) => a.distance - b.distance).find(free);
    if (found) return { x: found.x, y: found.y };
  }
  return { x: start.x, y: Math.max(...boxes.map((box) => box.y + box.height), start.y) + gap };
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
