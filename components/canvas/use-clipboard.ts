"use client";

import { useCallback, useEffect } from "react";
import { copyFragment, type Fragment, pasteFragment, pasteOffset, readFragment } from "@/lib/canvas";
import { useCanvas } from "./canvas-context";
import { isEditable } from "./shortcuts";
import { useCurrentWorkflow } from "./use-current-workflow";

/**
 * Copy, cut and paste of nodes through the system clipboard (the browser's
 * copy/paste events, which need no permission), so a selection can be
 * pasted into another workflow or tab. A field keeps its own copy and paste.
 * Returns `duplicate` for Ctrl+D.
 */
export function useClipboard(): { duplicate: () => void } {
  const { stores } = useCanvas();
  const currentWorkflow = useCurrentWorkflow();

  const selectedFragment = useCallback((): Fragment | null => {
    const ids = new Set(stores.selection.getState().nodeIds);
    if (ids.size === 0) return null;
    const workflow = currentWorkflow();
    return copyFragment(workflow.nodes, workflow.edges, ids);
  }, [stores, currentWorkflow]);

  const paste = useCallback(
    (fragment: Fragment) => {
      const { nodes, edges, actions } = stores.document.getState();
      // Measured sizes where the canvas has them; the fragment's own nodes are matched by id when they are still here.
      const sizeOf = (id: string) => {
        const measured = nodes.find((node) => node.id === id)?.measured;
        return { width: measured?.width ?? 240, height: measured?.height ?? 110 };
      };
      const existing = nodes.map((node) => ({ ...node.position, ...sizeOf(node.id) }));
      const offset = pasteOffset(fragment.nodes.map((node) => ({ ...node.position, ...sizeOf(node.id) })), existing);
      const pasted = pasteFragment(fragment, { nodeIds: nodes.map((node) => node.id), edgeIds: edges.map((edge) => edge.id) }, offset);
      actions.addElements(pasted.nodes, pasted.edges);
      stores.notices.getState().announce(`Pasted ${count(pasted.nodes.length, "node")}${pasted.edges.length ? ` and ${count(pasted.edges.length, "edge")}` : ""}.`, "success");
    },
    [stores],
  );

  useEffect(() => {
    const onCopy = (event: ClipboardEvent, cut: boolean) => {
      if (isEditable(event.target) || document.querySelector("dialog[open]")) return;
      const fragment = selectedFragment();
      if (!fragment || !event.clipboardData) return;
      event.preventDefault();
      event.clipboardData.setData("text/plain", JSON.stringify(fragment, null, 2));
      if (cut) stores.document.getState().actions.removeElements(fragment.nodes.map((node) => node.id), []);
      stores.notices.getState().announce(`${cut ? "Cut" : "Copied"} ${count(fragment.nodes.length, "node")}.`, "info");
    };
    const copy = (event: ClipboardEvent) => onCopy(event, false);
    const cut = (event: ClipboardEvent) => onCopy(event, true);
    const onPaste = (event: ClipboardEvent) => {
      if (isEditable(event.target) || document.querySelector("dialog[open]")) return;
      const fragment = readFragment(event.clipboardData?.getData("text/plain") ?? "");
      if (!fragment) return;
      event.preventDefault();
      paste(fragment);
    };
    document.addEventListener("copy", copy);
    document.addEventListener("cut", cut);
    document.addEventListener("paste", onPaste);
    return () => {
      document.removeEventListener("copy", copy);
      document.removeEventListener("cut", cut);
      document.removeEventListener("paste", onPaste);
    };
  }, [paste, selectedFragment, stores]);

  const duplicate = useCallback(() => {
    const fragment = selectedFragment();
    if (fragment) paste(fragment);
  }, [paste, selectedFragment]);

  return { duplicate };
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
