"use client";

import Link from "next/link";
import { selectAnalysis, selectCanRedo, selectCanUndo, selectName, selectSelectionSize } from "@/lib/store";
import { useAnalysisStore, useDocumentStore, useSelectionStore } from "./canvas-context";
import { SaveStatusView } from "./save-status";
import type { SaveStatus } from "./use-autosave";
import type { CanvasAccess } from "./canvas-context";

export interface ToolbarCommands {
  undo(): void;
  redo(): void;
  deleteSelection(): void;
  layout(): void;
  fitView(): void;
  showProblems(): void;
  /** Selects a node and brings it into view. */
  showNode(nodeId: string): void;
  openVersions(): void;
  openShortcuts(): void;
  openRun(): void;
  /** Runs the workflow's test cases against the canvas (absent when the page offers no Test). */
  runTests?(): void;
  /** Opens or closes the chat playground beside the canvas. */
  toggleChat?(): void;
  chatOpen?: boolean;
  /** Small screens: opens or closes the palette or the inspector drawer. */
  toggleDrawer(drawer: "palette" | "inspector"): void;
}

/** The bar above the canvas: name, save status, problems, edit and view commands, versions, export, test, run. */
export function CanvasToolbar({
  workflowId,
  status,
  commands,
  drawer,
  access,
}: {
  workflowId: string;
  status: SaveStatus;
  commands: ToolbarCommands;
  /** The drawer open on a small screen, if any. */
  drawer: "palette" | "inspector" | null;
  /** Edit commands only for an editor, Run only for a runner (or higher). */
  access: CanvasAccess;
}) {
  const name = useDocumentStore(selectName);
  const canUndo = useDocumentStore(selectCanUndo);
  const canRedo = useDocumentStore(selectCanRedo);
  const selected = useSelectionStore(selectSelectionSize);
  const analysis = useAnalysisStore(selectAnalysis);
  const problems = analysis.errors + analysis.warnings;
  return (
    <header className="canvas-toolbar">
      <div className="canvas-title">
        <Link href="/" className="small">
          ← Workflows
        </Link>
        <h1>{name}</h1>
        {access.edit ? <SaveStatusView status={status} /> : <span className="badge">read only</span>}
      </div>
      <div className="canvas-commands" role="toolbar" aria-label="Canvas commands">
        <span className="toolbar-group drawer-toggles">
          {access.edit ? (
            <button type="button" className="button-quiet" aria-expanded={drawer === "palette"} aria-controls="canvas-palette" onClick={() => commands.toggleDrawer("palette")}>
              Add nodes
            </button>
          ) : null}
          <button type="button" className="button-quiet" aria-expanded={drawer === "inspector"} aria-controls="canvas-inspector" onClick={() => commands.toggleDrawer("inspector")}>
            Inspector
          </button>
        </span>
        <button
          type="button"
          className={`problem-summary ${analysis.errors > 0 ? "has-errors" : problems > 0 ? "has-warnings" : "is-clean"}`}
          onClick={commands.showProblems}
          disabled={problems === 0}
          aria-label={problems === 0 ? "No problems" : `Show problems: ${plural(analysis.errors, "error")}, ${plural(analysis.warnings, "warning")}`}
        >
          {problems === 0 ? "No problems" : `${plural(analysis.errors, "error")} · ${plural(analysis.warnings, "warning")}`}
        </button>
        {access.edit ? (
          <span className="toolbar-group toolbar-edit">
            <button type="button" className="button-quiet" onClick={commands.undo} disabled={!canUndo} title="Undo (Ctrl+Z)">
              Undo
            </button>
            <button type="button" className="button-quiet" onClick={commands.redo} disabled={!canRedo} title="Redo (Shift+Ctrl+Z)">
              Redo
            </button>
            <button type="button" className="button-quiet" onClick={commands.deleteSelection} disabled={selected === 0} title="Delete the selection (Delete)">
              Delete
            </button>
          </span>
        ) : null}
        <span className="toolbar-group">
          {access.edit ? (
            <button type="button" className="button-quiet" onClick={commands.layout} title="Auto-layout (Shift+Alt+T)">
              Auto-layout
            </button>
          ) : null}
          <button type="button" className="button-quiet" onClick={commands.fitView} title="Fit view (1)">
            Fit view
          </button>
        </span>
        <span className="toolbar-group toolbar-history">
          {access.edit ? (
            <button type="button" className="button-quiet" onClick={commands.openVersions}>
              Versions
            </button>
          ) : null}
          <a className="button-quiet" href={`/workflows/${encodeURIComponent(workflowId)}/export`} download>
            Export JSON
          </a>
          <a className="button-quiet" href={`/workflows/${encodeURIComponent(workflowId)}/grants`}>
            Grants
          </a>
          <a className="button-quiet" href={`/workflows/${encodeURIComponent(workflowId)}/triggers`}>
            Triggers
          </a>
          <a className="button-quiet" href={`/workflows/${encodeURIComponent(workflowId)}/tests`}>
            Tests
          </a>
          <a className="button-quiet" href={`/workflows/${encodeURIComponent(workflowId)}/chat`}>
            Chat page
          </a>
          <button type="button" className="button-quiet" onClick={commands.openShortcuts} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
            ?
          </button>
        </span>
        {access.run && commands.runTests ? (
          <button type="button" className="button-quiet" onClick={commands.runTests} title="Run this workflow's test cases against the canvas, saved or not">
            Test
          </button>
        ) : null}
        {access.run && commands.toggleChat ? (
          <button type="button" className="button-quiet" onClick={commands.toggleChat} aria-pressed={commands.chatOpen ?? false} title="Chat with the workflow on the canvas, saved or not">
            Chat
          </button>
        ) : null}
        {access.run ? (
          <button type="button" className="button" onClick={commands.openRun}>
            Run
          </button>
        ) : null}
      </div>
    </header>
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
