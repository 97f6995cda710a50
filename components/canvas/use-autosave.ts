"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { Workflow } from "@/lib/graph";
import { toWorkflow } from "@/lib/store";
import type { CanvasSaveActions } from "@/components/workflows/action-types";
import { useCanvas } from "./canvas-context";

export type SaveStatus = { state: "saved"; savedAt: string | null } | { state: "unsaved" } | { state: "saving" } | { state: "failed"; error: string };

/**
 * Saves the document a moment after each change (debounced), one save at a
 * time, and again if it changed while saving. `flush` saves now and says
 * whether everything is saved: Ctrl+S, Run and versions call it first.
 * Leaving the page with unsaved changes asks first.
 */
export function useAutosave(
  save: CanvasSaveActions["saveDocument"],
  delayMs = 700,
  onSaved?: (result: Extract<Awaited<ReturnType<CanvasSaveActions["saveDocument"]>>, { ok: true }>) => void,
): { status: SaveStatus; flush: () => Promise<boolean> } {
  const { workflowId, stores } = useCanvas();
  const [status, setStatus] = useState<SaveStatus>({ state: "saved", savedAt: null });
  const saved = useRef(stores.document.getState().revision);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const onSavedRef = useRef(onSaved);
  useEffect(() => {
    onSavedRef.current = onSaved;
  }, [onSaved]);

  const saveOnce = useCallback(async (): Promise<boolean> => {
    const state = stores.document.getState();
    const revision = state.revision;
    if (revision === saved.current) return true;
    const document: Workflow = toWorkflow(state);
    setStatus({ state: "saving" });
    let result: Awaited<ReturnType<typeof save>>;
    try {
      result = await save(workflowId, document);
    } catch (error) {
      result = { ok: false, error: `the server could not be reached (${(error as Error).message})` };
    }
    if (!result.ok) {
      setStatus({ state: "failed", error: result.error });
      return false;
    }
    saved.current = Math.max(saved.current, revision);
    onSavedRef.current?.(result);
    const now = stores.document.getState().revision;
    setStatus(now === saved.current ? { state: "saved", savedAt: result.savedAt } : { state: "unsaved" });
    return now === saved.current;
  }, [save, stores, workflowId]);

  const run = useCallback(async (): Promise<boolean> => {
    while (inFlight.current) await inFlight.current;
    const attempt = saveOnce();
    inFlight.current = attempt;
    try {
      return await attempt;
    } finally {
      inFlight.current = null;
    }
  }, [saveOnce]);

  const flush = useCallback(async (): Promise<boolean> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    let ok = await run();
    // Changes made while that save was on its way.
    if (ok && stores.document.getState().revision !== saved.current) ok = await run();
    return ok;
  }, [run, stores]);

  useEffect(() => {
    const unsubscribe = stores.document.subscribe((state, previous) => {
      if (state.revision === previous.revision || state.revision === saved.current) return;
      setStatus((current) => (current.state === "saving" ? current : { state: "unsaved" }));
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = null;
        void run().then((ok) => {
          if (!ok && !timer.current) timer.current = setTimeout(() => void flush(), 5000);
          else if (stores.document.getState().revision !== saved.current && !timer.current) timer.current = setTimeout(() => void run(), delayMs);
        });
      }, delayMs);
    });
    return () => {
      unsubscribe();
      if (timer.current) clearTimeout(timer.current);
    };
  }, [stores, run, flush, delayMs]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (stores.document.getState().revision === saved.current) return;
      event.preventDefault();
      void flush();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [stores, flush]);

  return { status, flush };
}
