import type { AnalysisState } from "./analysis-store";
import type { DocumentState } from "./document-store";
import type { RunStatusState } from "./run-status-store";
import type { SelectionState } from "./selection-store";

// Selectors live at module scope so a component's subscription keeps one
// identity between renders; per-node selectors are made once per node id.

export const selectNodes = (state: DocumentState) => state.nodes;
export const selectEdges = (state: DocumentState) => state.edges;
export const selectDocumentActions = (state: DocumentState) => state.actions;
export const selectRevision = (state: DocumentState) => state.revision;
export const selectContentRevision = (state: DocumentState) => state.contentRevision;
export const selectCanUndo = (state: DocumentState) => state.past.length > 0;
export const selectCanRedo = (state: DocumentState) => state.future.length > 0;
export const selectName = (state: DocumentState) => state.name;

/** The one node being inspected: the selection when it is exactly one node. */
export const selectInspectedNodeId = (state: SelectionState) => (state.nodeIds.length === 1 && state.edgeIds.length <= 1 ? state.nodeIds[0] : null);
export const selectInspectedEdgeId = (state: SelectionState) => (state.nodeIds.length === 0 && state.edgeIds.length === 1 ? state.edgeIds[0] : null);
export const selectSelectionSize = (state: SelectionState) => state.nodeIds.length + state.edgeIds.length;

export const selectAnalysis = (state: AnalysisState) => state.analysis;
export const selectRunId = (state: RunStatusState) => state.runId;
export const selectRunState = (state: RunStatusState) => state.status;
export const selectRunFinished = (state: RunStatusState) => state.finished;
export const selectRunError = (state: RunStatusState) => state.error;
export const selectRunCalls = (state: RunStatusState) => state.calls;
export const selectRunResult = (state: RunStatusState) => state.result;
export const selectRunWaitingForApproval = (state: RunStatusState) => state.waitingForApproval;
export const selectRunStage = (state: RunStatusState) => state.stage;

/** A node's data by id; undefined once it is deleted. */
export function nodeById(id: string) {
  return (state: DocumentState) => state.nodes.find((node) => node.id === id);
}

export function edgeById(id: string) {
  return (state: DocumentState) => state.edges.find((edge) => edge.id === id);
}

/** How many errors and warnings a node has, as one string so equal counts do not re-render. */
export function nodeProblemCounts(id: string) {
  return (state: AnalysisState) => {
    const entry = state.analysis.byNode[id];
    return entry ? `${entry.errors}:${entry.warnings}` : "0:0";
  };
}

export function nodeToolCost(id: string) {
  return (state: AnalysisState) => state.analysis.toolCosts[id];
}

export function nodeRunStatus(id: string) {
  return (state: RunStatusState) => state.byNode[id];
}

/** An agent node's text as its model writes it, while the followed run runs; undefined when it writes nothing now. */
export function nodeLiveText(id: string) {
  return (state: RunStatusState) => state.liveText[id];
}

/** A node's outputs from the followed run's latest run of it; undefined when it has not run. */
export function nodeRunOutputs(id: string) {
  return (state: RunStatusState) => state.outputs[id];
}
