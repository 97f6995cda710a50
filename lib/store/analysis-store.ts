import { createStore, type StoreApi } from "zustand/vanilla";
import type { WorkflowAnalysis } from "../canvas";

/** What the canvas derives from the document: problems per node and edge, agents' tool costs. */
export interface AnalysisState {
  analysis: WorkflowAnalysis;
  /** The document's contentRevision the analysis was made from. */
  revision: number;
  analysed(analysis: WorkflowAnalysis, revision: number): void;
}

export type AnalysisStore = StoreApi<AnalysisState>;

export function createAnalysisStore(initial: WorkflowAnalysis): AnalysisStore {
  return createStore<AnalysisState>()((set) => ({
    analysis: initial,
    revision: 0,
    analysed: (analysis, revision) => set({ analysis, revision }),
  }));
}
