"use client";

import { createContext, type ReactNode, useContext } from "react";
import { useStore } from "zustand";
import type { CanvasCatalogue, CanvasNodeType } from "@/lib/canvas";
import type { NodeTypes } from "@/lib/graph";
import type { IssuedWebhookView } from "@/components/workflows/action-types";
import type { AnalysisState, CanvasStores, DocumentState, NoticeState, RunStatusState, SelectionState, ServerState, TestMarkState } from "@/lib/store";

/** What every part of one canvas shares: its stores and the node catalogue (which never changes while it is open). */
export interface CanvasEnvironment {
  workflowId: string;
  stores: CanvasStores;
  catalogue: CanvasCatalogue;
  /** Catalogue entries by type name, built-ins included. */
  entries: ReadonlyMap<string, CanvasNodeType>;
  /** The graph's lookup of manifest node types (built-ins are found by lib/graph). */
  nodeTypes: NodeTypes;
  /** Lists these registry servers' tools into the server store (each once; see server-tools.ts). */
  listServerTools: (serverIds: Iterable<string>) => void;
  /** Grants a server to this workflow (then lists its tools); absent for people who may not grant. */
  grantServer?: (serverId: string) => Promise<{ ok: true } | { ok: false; error: string }>;
  /** What the person's role lets them do here: a viewer reads, a runner also runs, an editor also edits. */
  access: CanvasAccess;
  /** Saves the document, then makes the webhook Start's URL and secret (shown once); absent below editor. */
  issueWebhook?: () => Promise<IssuedWebhookView>;
}

export interface CanvasAccess {
  edit: boolean;
  run: boolean;
}

const CanvasContext = createContext<CanvasEnvironment | null>(null);

export function CanvasProvider({ value, children }: { value: CanvasEnvironment; children: ReactNode }) {
  return <CanvasContext.Provider value={value}>{children}</CanvasContext.Provider>;
}

export function useCanvas(): CanvasEnvironment {
  const value = useContext(CanvasContext);
  if (!value) throw new Error("useCanvas: render inside <CanvasProvider>");
  return value;
}

// One hook per store; pass a selector defined at module scope (lib/store/selectors.ts).
export function useDocumentStore<T>(selector: (state: DocumentState) => T): T {
  return useStore(useCanvas().stores.document, selector);
}

export function useSelectionStore<T>(selector: (state: SelectionState) => T): T {
  return useStore(useCanvas().stores.selection, selector);
}

export function useRunStatusStore<T>(selector: (state: RunStatusState) => T): T {
  return useStore(useCanvas().stores.runStatus, selector);
}

export function useAnalysisStore<T>(selector: (state: AnalysisState) => T): T {
  return useStore(useCanvas().stores.analysis, selector);
}

export function useNoticeStore<T>(selector: (state: NoticeState) => T): T {
  return useStore(useCanvas().stores.notices, selector);
}

export function useServerStore<T>(selector: (state: ServerState) => T): T {
  return useStore(useCanvas().stores.servers, selector);
}

export function useTestMarkStore<T>(selector: (state: TestMarkState) => T): T {
  return useStore(useCanvas().stores.testMarks, selector);
}
