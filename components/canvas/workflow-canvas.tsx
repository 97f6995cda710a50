"use client";

import {
  Background,
  BackgroundVariant,
  type Connection,
  ConnectionMode,
  Controls,
  type FinalConnectionState,
  MiniMap,
  type Node,
  type OnSelectionChangeParams,
  ReactFlow,
  type ReactFlowState,
  useReactFlow,
  useStore,
} from "@xyflow/react";
import { SmartEdgeProvider, type SmartEdgeProviderOptions } from "@tisoap/react-flow-smart-edge";
import { type DragEvent, type RefObject, useCallback, useEffect, useMemo, useRef } from "react";
import { withServerDefaultBadges } from "@/lib/canvas";
import { type CanvasEdge, type CanvasNode, selectDocumentActions, selectEdges, selectNodes, selectServersById } from "@/lib/store";
import { useCanvas, useDocumentStore, useServerStore } from "./canvas-context";
import { paletteMimeType, useAddNode } from "./use-add-node";
import { useConnect } from "./use-connect";
import { handleTargetAt, selectZoomStep } from "./handle-target";
import { WorkflowNodeView } from "./workflow-node";
import { ConnectionHints } from "./connection-hints";
import { RoutedEdge } from "./routed-edge";

// Module scope: React Flow re-creates every node when these objects change.
const nodeTypes = { workflow: WorkflowNodeView };
const routedEdgeTypes = { default: RoutedEdge };
const plainEdgeTypes = {};
const noObstacles: CanvasNode[] = [];
/** Orthogonal routing around nodes: grid cells of 10 px, 16 px of clearance (an approval badge on the path clears the nodes beside it). */
const routingOptions: SmartEdgeProviderOptions = { gridRatio: 10, nodePadding: 16, borderRadius: 8 };
/**
 * Edges are routed around nodes up to this many nodes; a larger workflow
 * keeps the plain curves, so the canvas at 500 nodes draws and pans as fast
 * as before (docs/decisions.md, "Edge routing").
 */
export const routeEdgesUpToNodes = 150;
const fitViewOptions = { padding: 0.2, maxZoom: 1.3 };
const proOptions = { hideAttribution: false };
const multiSelectKeys = ["Meta", "Control"];

/** Below this zoom a node's text is a few pixels high: nodes are drawn as plain cards (see canvas.css). */
const farZoom = 0.35;
const selectFar = (state: ReactFlowState) => state.transform[2] < farZoom;


/** The React Flow surface: drawing, connection rules with reasons, drop from the palette, selection. */
export function WorkflowCanvas() {
  const { stores, access } = useCanvas();
  const nodes = useDocumentStore(selectNodes);
  const storedEdges = useDocumentStore(selectEdges);
  const servers = useServerStore(selectServersById);
  // An edge without its own policy, from an MCP server node whose server has defaults, shows them ("from server default").
  const edges = useMemo(() => withServerDefaultBadges(storedEdges, nodes, servers), [storedEdges, nodes, servers]);
  const actions = useDocumentStore(selectDocumentActions);
  const addNode = useAddNode();
  const { screenToFlowPosition } = useReactFlow();
  const refusal = useRef<string | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const announce = stores.notices.getState().announce;

  const { check, connect } = useConnect();

  const isValidConnection = useCallback(
    (connection: Connection | CanvasEdge) => {
      const verdict = check(connection);
      refusal.current = verdict.ok ? null : verdict.reason;
      return verdict.ok;
    },
    [check],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      connect(connection);
      refusal.current = null;
    },
    [connect],
  );

  // A drag let go over a handle that refused it: say why, there and in the status line.
  const onConnectEnd = useCallback(
    (_event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (!state.fromHandle || !state.toHandle || state.isValid) return;
      const verdict = check({ source: state.fromHandle.nodeId, sourceHandle: state.fromHandle.id ?? null, target: state.toHandle.nodeId, targetHandle: state.toHandle.id ?? null });
      if (verdict.ok) return;
      announce(`Not connected: ${verdict.reason}`, "error");
    },
    [announce, check],
  );

  // Click-to-connect (also Enter on two handles): the refusal was recorded by isValidConnection.
  const onClickConnectStart = useCallback(() => {
    refusal.current = null;
  }, []);
  const onClickConnectEnd = useCallback(() => {
    if (refusal.current) announce(`Not connected: ${refusal.current}`, "error");
    refusal.current = null;
  }, [announce]);

  const onSelectionChange = useCallback(
    ({ nodes: chosen, edges: chosenEdges }: OnSelectionChangeParams<Node, CanvasEdge>) => {
      stores.selection.getState().setSelection(
        chosen.map((node) => node.id),
        chosenEdges.map((edge) => edge.id),
      );
    },
    [stores],
  );

  // While the view moves, the viewport gets its own compositor layer: panning 500 nodes then
  // moves a picture instead of repainting every node each frame (37 → 55+ fps in the bench).
  // Only while moving, so text is drawn sharp again at the new zoom once it stops.
  const onMoveStart = useCallback(() => wrapper.current?.classList.add("is-moving"), []);
  const onMoveEnd = useCallback(() => wrapper.current?.classList.remove("is-moving"), []);

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(paletteMimeType)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(paletteMimeType);
      if (!type) return;
      event.preventDefault();
      const at = screenToFlowPosition({ x: event.clientX, y: event.clientY });
      // A server from the palette's MCP section travels as `mcp-server:<id>`.
      const server = /^mcp-server:(.+)$/.exec(type);
      if (server) addNode("mcp-server", at, { serverId: server[1] });
      else addNode(type, at);
    },
    [addNode, screenToFlowPosition],
  );

  const routing = nodes.length <= routeEdgesUpToNodes;

  // The frame carries the view-state classes (is-moving, is-far): React never rewrites its className.
  return (
    <div ref={wrapper} className="canvas-frame">
      <SmartEdgeProvider nodes={routing ? nodes : noObstacles} options={routingOptions}>
        <ReactFlow<CanvasNode, CanvasEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={routing ? routedEdgeTypes : plainEdgeTypes}
          onNodesChange={actions.onNodesChange}
          onEdgesChange={actions.onEdgesChange}
          onConnect={onConnect}
          isValidConnection={isValidConnection}
          onConnectEnd={onConnectEnd}
          onClickConnectStart={onClickConnectStart}
          onClickConnectEnd={onClickConnectEnd}
          onNodeDragStart={actions.beginGesture}
          onNodeDragStop={actions.endGesture}
          onSelectionDragStart={actions.beginGesture}
          onSelectionDragStop={actions.endGesture}
          onSelectionChange={onSelectionChange}
          onDragOver={onDragOver}
          onDrop={onDrop}
          onMoveStart={onMoveStart}
          onMoveEnd={onMoveEnd}
          connectionMode={ConnectionMode.Loose}
          deleteKeyCode={null}
          nodesDraggable={access.edit}
          nodesConnectable={access.edit}
          edgesReconnectable={access.edit}
          multiSelectionKeyCode={multiSelectKeys}
          selectionKeyCode="Shift"
          fitView
          fitViewOptions={fitViewOptions}
          minZoom={0.05}
          maxZoom={2}
          proOptions={proOptions}
          colorMode="system"
          aria-label="Workflow canvas"
          className="workflow-canvas"
        >
          <Background variant={BackgroundVariant.Dots} gap={20} size={1} />
          <MiniMap pannable zoomable ariaLabel="Minimap of the workflow" nodeClassName={minimapClass} />
          <Controls aria-label="Zoom controls" showInteractive={false} />
          <FarZoomClass wrapper={wrapper} />
          <HandleTargetSize wrapper={wrapper} />
          <ConnectionHints />
        </ReactFlow>
      </SmartEdgeProvider>
    </div>
  );
}

/**
 * Level of detail: zoomed far out, the canvas gets the class `is-far` and
 * nodes skip drawing their contents (content-visibility), keeping their
 * size, so hit-testing and painting 500 nodes stays cheap. It re-renders only
 * when the zoom crosses the threshold.
 */
function FarZoomClass({ wrapper }: { wrapper: RefObject<HTMLDivElement | null> }) {
  const far = useStore(selectFar);
  useEffect(() => {
    wrapper.current?.classList.toggle("is-far", far);
  }, [far, wrapper]);
  return null;
}

/**
 * Keeps every handle's target at least 24 px on screen: the frame gets
 * --handle-target, 24 px divided by the lowest zoom of the current step
 * (canvas.css sizes each handle's box with it). One style write when the
 * zoom crosses a 10 % step, so panning and zooming 500 nodes stay as cheap.
 * Edges stay on the dots after a resize: React Flow ends an edge at the
 * middle of the box's outer side, which stays on the node's border.
 */
function HandleTargetSize({ wrapper }: { wrapper: RefObject<HTMLDivElement | null> }) {
  const step = useStore(selectZoomStep);
  useEffect(() => {
    wrapper.current?.style.setProperty("--handle-target", `${handleTargetAt(step)}px`);
  }, [step, wrapper]);
  return null;
}

function minimapClass(node: CanvasNode): string {
  return `minimap-node minimap-${node.data.type}`;
}
