"use client";

import "@xyflow/react/dist/style.css";
import "./canvas.css";
import { ReactFlowProvider } from "@xyflow/react";
import { useState } from "react";
import { analyseWorkflow, type CanvasCatalogue, type CanvasNodeType, canvasNodeTypes } from "@/lib/canvas";
import type { Workflow } from "@/lib/graph";
import { createCanvasStores } from "@/lib/store";
import type { CanvasRunActions, CanvasSaveActions, VersionItem } from "@/components/workflows/action-types";
import { type CanvasEnvironment, CanvasProvider } from "./canvas-context";
import { EditorLayout } from "./editor-layout";

/**
 * The canvas editor of one workflow. It creates the canvas's stores once
 * (document + history, selection, run status, analysis, notices) and lays
 * out palette, canvas and inspector around them.
 */
export function CanvasEditor({
  workflowId,
  workflow,
  catalogue,
  versions,
  saveActions,
  runActions,
}: {
  workflowId: string;
  workflow: Workflow;
  catalogue: CanvasCatalogue;
  versions: VersionItem[];
  saveActions: CanvasSaveActions;
  runActions: CanvasRunActions;
}) {
  const [environment] = useState<CanvasEnvironment>(() => {
    const entries = new Map<string, CanvasNodeType>(catalogue.types.map((type) => [type.name, type]));
    const nodeTypes = canvasNodeTypes(catalogue);
    const titleOf = (type: string) => entries.get(type)?.title ?? type;
    const stores = createCanvasStores({ workflow, titleOf, analysis: analyseWorkflow(workflow, nodeTypes, entries) });
    return { workflowId, stores, catalogue, entries, nodeTypes };
  });
  return (
    <ReactFlowProvider>
      <CanvasProvider value={environment}>
        <EditorLayout initialVersions={versions} saveActions={saveActions} runActions={runActions} />
      </CanvasProvider>
    </ReactFlowProvider>
  );
}
