"use client";

import { useCallback, useEffect, useMemo } from "react";
import { EdgeInspector } from "@/components/inspector/edge-inspector";
import { ProblemItems } from "@/components/inspector/problem-items";
import { NodeInspector } from "@/components/inspector/node-inspector";
import { connectionChoices, serverDefaultBadge } from "@/lib/canvas";
import { mcpServerChoice } from "@/lib/graph";
import {
  edgeById,
  nodeById,
  selectAnalysis,
  selectDocumentActions,
  selectEdges,
  selectNodes,
  selectInspectedEdgeId,
  selectInspectedNodeId,
  selectSelectionSize,
  selectServers,
  selectServersById,
  selectServerTools,
  toWorkflowEdge,
} from "@/lib/store";
import { useAnalysisStore, useCanvas, useDocumentStore, useSelectionStore, useServerStore } from "./canvas-context";
import { useConnect } from "./use-connect";
import { useCurrentWorkflow } from "./use-current-workflow";

const noNode = () => undefined;

/** The right-hand panel: the selected node's or edge's inspector, or a hint. */
export function InspectorPanel({ onClose }: { onClose?: () => void }) {
  const nodeId = useSelectionStore(selectInspectedNodeId);
  const edgeId = useSelectionStore(selectInspectedEdgeId);
  const selected = useSelectionStore(selectSelectionSize);
  const { access } = useCanvas();
  return (
    <aside className="inspector-panel" id="canvas-inspector" aria-label="Inspector">
      {onClose ? (
        <button type="button" className="button-quiet drawer-close" onClick={onClose}>
          Close the inspector
        </button>
      ) : null}
      {/* Below editor the settings are shown, not changeable: a disabled fieldset disables every field inside. */}
      <fieldset className="inspector-access" disabled={!access.edit} aria-label={access.edit ? undefined : "Settings (read only)"}>
        {nodeId ? <InspectedNode id={nodeId} /> : edgeId ? <InspectedEdge id={edgeId} /> : <InspectorHint selected={selected} />}
      </fieldset>
    </aside>
  );
}

function InspectedNode({ id }: { id: string }) {
  const { nodeTypes, entries, listServerTools, workflowId, issueWebhook, access } = useCanvas();
  const node = useDocumentStore(useMemo(() => nodeById(id), [id]));
  const actions = useDocumentStore(selectDocumentActions);
  const analysis = useAnalysisStore(selectAnalysis);
  const servers = useServerStore(selectServers);
  const byId = useServerStore(selectServersById);
  const tools = useServerStore(selectServerTools);
  const serverId = node ? mcpServerChoice(node.data)?.serverId : undefined;
  const serverData = useMemo(
    () => (node?.data.type === "mcp-server" ? { server: serverId ? byId.get(serverId) : undefined, tools: serverId ? tools[serverId] : undefined, servers } : undefined),
    [node?.data.type, serverId, byId, tools, servers],
  );
  useEffect(() => {
    if (serverId) listServerTools([serverId]);
  }, [serverId, listServerTools]);
  const onChange = useCallback((patch: { config?: Record<string, unknown>; label?: string }, mergeKey: string) => actions.updateNode(id, patch, mergeKey), [actions, id]);
  const onDelete = useCallback(() => actions.removeElements([id], []), [actions, id]);
  const edges = useDocumentStore(selectEdges);
  const nodes = useDocumentStore(selectNodes);
  const toolSources = useMemo(
    () =>
      edges
        .filter((edge) => edge.target === id && edge.data?.kind !== "signal")
        .map((edge) => {
          const source = nodes.find((candidate) => candidate.id === edge.source);
          const choice = source ? mcpServerChoice(source.data) : undefined;
          const serverDefault = choice ? serverDefaultBadge(byId.get(choice.serverId)?.approval, choice.toolNames) : null;
          return { edgeId: edge.id, source: edge.source, kind: edge.data?.kind ?? "service", approval: edge.data?.approval, ...(serverDefault ? { serverDefault } : {}) };
        }),
    [edges, nodes, byId, id],
  );
  const currentWorkflow = useCurrentWorkflow();
  const { connect } = useConnect();
  const connections = useMemo(
    () =>
      access.edit
        ? {
            listChoices: () => connectionChoices(currentWorkflow(), nodeTypes, id),
            revision: [nodes, edges],
            connect: (handle: string, far: { nodeId: string; handle: string }) => connect({ source: id, sourceHandle: handle, target: far.nodeId, targetHandle: far.handle }),
          }
        : undefined,
    [access.edit, currentWorkflow, nodeTypes, id, nodes, edges, connect],
  );
  if (!node) return <InspectorHint selected={0} />;
  return (
    <NodeInspector
      key={id}
      node={node}
      entry={entries.get(node.data.type)}
      nodeTypes={nodeTypes}
      problems={analysis.byNode[id]?.problems ?? []}
      toolCost={analysis.toolCosts[id]}
      serverData={serverData}
      toolSources={toolSources}
      onApprovalChange={actions.setEdgeApproval}
      webhook={{ workflowId, issue: issueWebhook }}
      connections={connections}
      onChange={onChange}
      onDelete={onDelete}
    />
  );
}

function InspectedEdge({ id }: { id: string }) {
  const edge = useDocumentStore(useMemo(() => (id ? edgeById(id) : noNode), [id]));
  const actions = useDocumentStore(selectDocumentActions);
  const analysis = useAnalysisStore(selectAnalysis);
  if (!edge) return <InspectorHint selected={0} />;
  return <EdgeInspector edge={toWorkflowEdge(edge)} problems={analysis.byEdge[id] ?? []} onDelete={() => actions.removeElements([], [id])} />;
}

function InspectorHint({ selected }: { selected: number }) {
  const analysis = useAnalysisStore(selectAnalysis);
  const nodesWithProblems = Object.values(analysis.byNode).filter((entry) => entry.problems.length > 0).length;
  return (
    <div className="inspector-hint">
      <h2>Inspector</h2>
      {selected > 1 ? (
        <p className="small">{selected} elements selected. Copy (Ctrl+C), delete (Delete) or drag them together; select one to edit it.</p>
      ) : (
        <p className="small">Select a node to edit its label and settings, see its problems and, for an agent, its tool cost. Press ? for keyboard shortcuts.</p>
      )}
      {nodesWithProblems > 0 ? (
        <p className="small">
          {nodesWithProblems} node{nodesWithProblems === 1 ? " has" : "s have"} problems: each shows a badge; select it to read them.
        </p>
      ) : null}
      {analysis.general.length > 0 ? <ProblemItems problems={analysis.general} label="Problems of the workflow" /> : null}
    </div>
  );
}
