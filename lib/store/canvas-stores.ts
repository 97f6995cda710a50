import type { CanvasServer, WorkflowAnalysis } from "../canvas";
import type { Workflow } from "../graph";
import { createAnalysisStore, type AnalysisStore } from "./analysis-store";
import type { TitleOf } from "./canvas-document";
import { createDocumentStore, type DocumentStore } from "./document-store";
import { createNoticeStore, type NoticeStore } from "./notice-store";
import { createRunStatusStore, type RunStatusStore } from "./run-status-store";
import { createTestMarkStore, type TestMarkStore } from "./test-mark-store";
import { createSelectionStore, type SelectionStore } from "./selection-store";
import { createServerStore, type ServerStore } from "./server-store";

/** The stores of one canvas, apart so that a run's status or a selection never re-renders the document's readers. */
export interface CanvasStores {
  document: DocumentStore;
  selection: SelectionStore;
  runStatus: RunStatusStore;
  analysis: AnalysisStore;
  notices: NoticeStore;
  servers: ServerStore;
  /** The nodes where the last Test found its cases failing. */
  testMarks: TestMarkStore;
}

/** Creates the stores of one canvas; a canvas creates them once, when it mounts. */
export function createCanvasStores(options: { workflow: Workflow; titleOf: TitleOf; analysis: WorkflowAnalysis; servers?: readonly CanvasServer[] }): CanvasStores {
  return {
    document: createDocumentStore(options.workflow, options.titleOf),
    selection: createSelectionStore(),
    runStatus: createRunStatusStore(),
    analysis: createAnalysisStore(options.analysis),
    notices: createNoticeStore(),
    servers: createServerStore(options.servers ?? []),
    testMarks: createTestMarkStore(),
  };
}
