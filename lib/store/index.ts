// lib/store: the zustand stores of one canvas (document + history, selection, run status, analysis) and their selectors.
export { createCanvasStores, type CanvasStores } from "./canvas-stores";
export { createDocumentStore, type DocumentActions, type DocumentState, type DocumentStore } from "./document-store";
export { createSelectionStore, type SelectionState, type SelectionStore } from "./selection-store";
export { createRunStatusStore, lastCallSequence, type RunStatusState, type RunStatusStore } from "./run-status-store";
export { createNoticeStore, type Notice, type NoticeState, type NoticeStore } from "./notice-store";
export { createAnalysisStore, type AnalysisState, type AnalysisStore } from "./analysis-store";
export { createServerStore, selectServers, selectServerTools, selectServersById, type ServerState, type ServerStore } from "./server-store";
export {
  nodeAriaLabel,
  toCanvasEdge,
  toCanvasNode,
  toWorkflow,
  toWorkflowEdge,
  toWorkflowNode,
  type CanvasEdge,
  type CanvasEdgeData,
  type CanvasNode,
  type CanvasNodeData,
  type TitleOf,
} from "./canvas-document";
export { historyLimit, type Snapshot } from "./history";
export {
  edgeById,
  nodeById,
  nodeProblemCounts,
  nodeRunOutputs,
  nodeLiveText,
  nodeRunStatus,
  nodeToolCost,
  selectAnalysis,
  selectCanRedo,
  selectCanUndo,
  selectContentRevision,
  selectDocumentActions,
  selectEdges,
  selectInspectedEdgeId,
  selectInspectedNodeId,
  selectName,
  selectNodes,
  selectRevision,
  selectRunCalls,
  selectRunError,
  selectRunResult,
  selectRunWaitingForApproval,
  selectRunStage,
  selectRunFinished,
  selectRunId,
  selectRunState,
  selectSelectionSize,
} from "./selectors";
export { createTestMarkStore, nodeTestFailures, type TestMarkState, type TestMarkStore } from "./test-mark-store";
