"use client";

import "@xyflow/react/dist/style.css";
import "./canvas.css";
import { ReactFlowProvider } from "@xyflow/react";
import { useEffect, useState } from "react";
import { type CanvasCatalogue, type CanvasServer, canvasLookups, type WorkflowAnalysis } from "@/lib/canvas";
import { mcpServerChoice, type Workflow } from "@/lib/graph";
import { createCanvasStores, toWorkflow } from "@/lib/store";
import type { ApprovalLooseningItem, ApproveLoosening, ApproveOrigin, CanvasRunActions, CanvasSaveActions, CanvasServerActions, CanvasTriggerActions, VersionItem } from "@/components/workflows/action-types";
import type { OriginNoticeEntry } from "@/components/workflows/origin-notices";
import { type CanvasAccess, type CanvasEnvironment, CanvasProvider } from "./canvas-context";

const notListed: CanvasServerActions = { listTools: async () => ({ ok: false, error: "Listing a server's tools needs an editor (or higher)." }) };
import { EditorLayout } from "./editor-layout";
import { serverToolLister } from "./server-tools";

/**
 * The canvas editor of one workflow. It creates the canvas's stores once
 * (document + history, selection, run status, analysis, notices, servers)
 * and lays out palette, canvas and inspector around them. The workflow
 * comes as the server opened it (openCanvasWorkflow: MCP servers an agent
 * declares in its `tools` list are server nodes wired to it) with its first
 * analysis, so the first render spends no time analysing.
 */
export function CanvasEditor({
  workflowId,
  workflow,
  analysis,
  catalogue,
  versions,
  saveActions,
  runActions,
  servers,
  serverActions,
  access,
  origins = { waiting: [] },
  triggerActions,
  loosenings = { waiting: [] },
}: {
  workflowId: string;
  /** As openCanvasWorkflow made it. */
  workflow: Workflow;
  /** The workflow's analysis, from openCanvasWorkflow. */
  analysis: WorkflowAnalysis;
  catalogue: CanvasCatalogue;
  versions: VersionItem[];
  saveActions: CanvasSaveActions;
  runActions: CanvasRunActions;
  servers: CanvasServer[];
  /** Absent below editor: listing a server's tools connects to it, which reading a workflow does not need. */
  serverActions?: CanvasServerActions;
  access: CanvasAccess;
  /** Credential origins waiting for an owner; `approve` for owners only. */
  origins?: { waiting: OriginNoticeEntry[]; approve?: ApproveOrigin };
  /** Absent below editor. */
  triggerActions?: CanvasTriggerActions;
  /** Approval defaults the document loosens, waiting for an owner; `approve` for owners only. */
  loosenings?: { waiting: ApprovalLooseningItem[]; approve?: ApproveLoosening };
}) {
  const [environment] = useState<CanvasEnvironment>(() => {
    const { entries, nodeTypes, titleOf } = canvasLookups(catalogue);
    const stores = createCanvasStores({ workflow, titleOf, analysis, servers });
    const listServerTools = serverToolLister(stores.servers, serverActions ?? notListed);
    const grant = serverActions?.grant;
    const grantServer = grant
      ? async (serverId: string) => {
          const result = await grant(workflowId, "server", serverId);
          if (!result.ok) return result;
          stores.servers.getState().granted(serverId);
          listServerTools([serverId]);
          return { ok: true as const };
        }
      : undefined;
    // The URL is made for the saved Start: what is on the canvas is saved first.
    const issueWebhook = triggerActions
      ? async () => {
          const saved = await saveActions.saveDocument(workflowId, toWorkflow(stores.document.getState()));
          if (!saved.ok) return { ok: false as const, error: saved.error };
          return triggerActions.issueWebhook(workflowId);
        }
      : undefined;
    return { workflowId, stores, catalogue, entries, nodeTypes, listServerTools, access, grantServer, issueWebhook };
  });
  useEffect(() => {
    // The servers this document uses: their tools make the agents' tool lists and costs.
    const used = environment.stores.document.getState().nodes.flatMap((node) => mcpServerChoice(node.data)?.serverId ?? []);
    environment.listServerTools(used);
  }, [environment]);
  return (
    <ReactFlowProvider>
      <CanvasProvider value={environment}>
        <EditorLayout initialVersions={versions} saveActions={saveActions} runActions={runActions} origins={origins} loosenings={loosenings} />
      </CanvasProvider>
    </ReactFlowProvider>
  );
}
