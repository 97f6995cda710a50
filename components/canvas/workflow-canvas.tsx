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
  useReactFlow,
} from "@xyflow/react";
import { type DragEvent, useCallback, useRef } from "react";
import { proposeConnection } from "@/lib/canvas";
import { type CanvasEdge, type CanvasNode, selectDocumentActions, selectEdges, selectNodes } from "@/lib/store";
import { useCanvas, useDocumentStore } from "./canvas-context";
import { paletteMimeType, useAddNode } from "./use-add-node";
import { useCurrentWorkflow } from "./use-current-workflow";
import { WorkflowNodeView } from "./workflow-node";

// Module scope: React Flow re-creates every node when these objects change.
const nodeTypes = { workflow: WorkflowNodeView };
const fitViewOptions = { padding: 0.2, maxZoom: 1.1 };
const proOptions = { hideAttribution: false };
const multiSelectKeys = ["Meta", "Control"];

type Drawn = { source: string; sourceHandle?: string | null; target: string; targetHandle?: string | null };

/** The React Flow surface: drawing, connection rules with reasons, drop from the palette, selection. */
export function WorkflowCanvas() {
  const { stores, nodeTypes: types } = useCanvas();
  const nodes = useDocumentStore(selectNodes);
  const edges = useDocumentStore(selectEdges);
  const actions = useDocumentStore(selectDocumentActions);
  const currentWorkflow = useCurrentWorkflow();
  const addNode = useAddNode();
  const { screenToFlowPosition } = useReactFlow();
  const refusal = useRef<string | null>(null);
  const announce = stores.notices.getState().announce;

  const check = useCallback(
    (drawn: Drawn) => proposeConnection(currentWorkflow(), types, { ...drawn, sourceHandle: drawn.sourceHandle ?? null, targetHandle: drawn.targetHandle ?? null }),
    [currentWorkflow, types],
  );

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
      const verdict = check(connection);
      if (!verdict.ok) return announce(`Not connected: ${verdict.reason}`, "error");
      actions.addEdge(verdict.edge);
      refusal.current = null;
      if (verdict.warning) announce(`Connected, with a warning: ${verdict.warning}`, "warning");
      else announce(`Connected ${verdict.edge.source}.${verdict.edge.sourceHandle} to ${verdict.edge.target}.${verdict.edge.targetHandle} (${verdict.edge.kind} edge).`, "success");
    },
    [actions, announce, check],
  );

  // A drag let go over a handle that refused it: say why.
  const onConnectEnd = useCallback(
    (_event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (!state.fromHandle || !state.toHandle || state.isValid) return;
      const verdict = check({ source: state.fromHandle.nodeId, sourceHandle: state.fromHandle.id ?? null, target: state.toHandle.nodeId, targetHandle: state.toHandle.id ?? null });
      if (!verdict.ok) announce(`Not connected: ${verdict.reason}`, "error");
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
      addNode(type, screenToFlowPosition({ x: event.clientX, y: event.clientY }));
    },
    [addNode, screenToFlowPosition],
  );

  return (
    <ReactFlow<CanvasNode, CanvasEdge>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
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
      connectionMode={ConnectionMode.Loose}
      deleteKeyCode={null}
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
    </ReactFlow>
  );
}

function minimapClass(node: CanvasNode): string {
  return `minimap-node minimap-${node.data.type}`;
}
