"use client";

import { useReactFlow } from "@xyflow/react";
import { type ComponentProps, useCallback, useEffect, useMemo, useState } from "react";
import { autoLayout, runBlockers, runLosses } from "@/lib/canvas";
import { RunTextFollower } from "./run-text-follower";
import { selectAnalysis, selectServers, selectServerTools, toWorkflow } from "@/lib/store";
import { NodePalette } from "@/components/palette/node-palette";
import type { ApprovalLooseningItem, ApproveLoosening, ApproveOrigin, CanvasRunActions, CanvasSaveActions, OriginReview, TestOutcomes, VersionItem } from "@/components/workflows/action-types";
import { ApprovalLooseningNotice, looseningKey } from "@/components/workflows/approval-loosening-notice";
import { OriginChangeNotice } from "@/components/workflows/origin-change-notice";
import { describeOriginChange } from "@/lib/manifest/browser";
import { mergeOriginNotices, type OriginNoticeEntry, withoutApproved } from "@/components/workflows/origin-notices";
import { useAnalysisStore, useCanvas, useServerStore } from "./canvas-context";
import { CanvasToolbar, type ToolbarCommands } from "./canvas-toolbar";
import { InspectorPanel } from "./inspector-panel";
import { NoticeRegion } from "./notice-region";
import { RunDialog } from "./run-dialog";
import { RunPanel } from "./run-panel";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { TestDialog } from "./test-dialog";
import { ChatThreads } from "../chat/chat-threads";
import { maxChatMessageChars } from "@/lib/api/chat-limits";
import { paletteMimeType, useAddNode } from "./use-add-node";
import { useAnalysis } from "./use-analysis";
import { useAutosave } from "./use-autosave";
import { type ShortcutHandlers, useCanvasShortcuts } from "./use-canvas-shortcuts";
import { useClipboard } from "./use-clipboard";
import { useRunFollower } from "./use-run-follower";
import { VersionsDialog } from "./versions-dialog";
import { WorkflowCanvas } from "./workflow-canvas";

type Dialog = "versions" | "shortcuts" | "run" | "test" | null;

/**
 * The run dialog with the canvas's errors as they are now: an analysis that
 * lands while the dialog is open (a server just granted, its tools just
 * listed) updates the list and the Start button.
 */
function LiveRunDialog(props: Omit<ComponentProps<typeof RunDialog>, "errors" | "losses">) {
  const analysis = useAnalysisStore(selectAnalysis);
  const errors = useMemo(() => runBlockers(analysis), [analysis]);
  const losses = useMemo(() => runLosses(analysis), [analysis]);
  return <RunDialog {...props} errors={errors} losses={losses} />;
}

const fitOptions = { padding: 0.2, maxZoom: 1.3, duration: 200 };

/** The skip link's target: the first node (or the canvas when there is none), so the keyboard lands on the workflow. */
function skipToCanvas(event: React.MouseEvent<HTMLAnchorElement>) {
  const surface = document.getElementById("workflow-canvas");
  const first = surface?.querySelector<HTMLElement>(".react-flow__node");
  event.preventDefault();
  (first ?? surface)?.focus();
}

/** Below editor: the shortcuts that only look (select, fit, help) and none that change the document. */
function readOnlyShortcuts(handlers: ShortcutHandlers): ShortcutHandlers {
  const nothing = () => undefined;
  return { ...handlers, undo: nothing, redo: nothing, deleteSelection: nothing, duplicate: nothing, save: nothing, layout: nothing };
}

/** Palette | canvas | inspector under the toolbar (drawers on small screens), the dialogs, and the commands that tie them together. */
export function EditorLayout({
  initialVersions,
  saveActions,
  runActions,
  origins,
  loosenings,
}: {
  initialVersions: VersionItem[];
  saveActions: CanvasSaveActions;
  runActions: CanvasRunActions;
  /** Credential origins waiting for an owner when the page was opened, and the owner's approval (absent below owner). */
  origins: { waiting: OriginNoticeEntry[]; approve?: ApproveOrigin };
  /** Approval defaults the document loosens, waiting for an owner, and the owner's approval (absent below owner). */
  loosenings: { waiting: ApprovalLooseningItem[]; approve?: ApproveLoosening };
}) {
  const { workflowId, stores, catalogue, access } = useCanvas();
  const addNode = useAddNode();
  const servers = useServerStore(selectServers);
  const serverTools = useServerStore(selectServerTools);
  const paletteServers = useMemo(
    () => ({
      servers,
      tools: serverTools,
      onAdd: (serverId: string) => void addNode("mcp-server", undefined, { serverId }),
    }),
    [servers, serverTools, addNode],
  );
  const flow = useReactFlow();
  const [dialog, setDialog] = useState<Dialog>(null);
  // Below 900 px the palette and the inspector are drawers over the canvas (canvas.css); this is the open one.
  const [drawer, setDrawer] = useState<"palette" | "inspector" | null>(null);
  const [chatOpen, setChatOpen] = useState(false);
  const [versions, setVersions] = useState(initialVersions);
  // A version's test result is stored after its save answers: while one is running and the list is open, it is read again.
  const testsRunning = dialog === "versions" && versions.some((version) => version.tests?.status === "running");
  useEffect(() => {
    if (!testsRunning) return;
    const timer = setInterval(() => {
      void saveActions.listVersions(workflowId).then((result) => {
        if (result.ok) setVersions(result.versions);
      });
    }, 1500);
    return () => clearInterval(timer);
  }, [saveActions, testsRunning, workflowId]);
  const [testState, setTestState] = useState<TestOutcomes | "running" | null>(null);
  const [originNotices, setOriginNotices] = useState(origins.waiting);
  const [looseningNotices, setLooseningNotices] = useState(loosenings.waiting);
  const reviewed = useCallback(
    (review: OriginReview) => {
      setOriginNotices((current) => mergeOriginNotices(current, review));
      if (review.approvalLoosenings) setLooseningNotices(review.approvalLoosenings);
      if (review.approvalLoosenings?.length) stores.notices.getState().announce(`Saved. The server's approval default holds for ${review.approvalLoosenings.map((item) => `${item.server}/${item.tool}`).join(", ")} until an owner approves the looser policy.`, "warning");
      // Said at the moment of the edit, in the canvas's status line too (the notice above the canvas stays).
      if (review.originChanges.length) stores.notices.getState().announce(`Saved. ${review.originChanges.map(describeOriginChange).join(" ")}`, "warning");
    },
    [stores],
  );
  const { status, flush } = useAutosave(saveActions.saveDocument, undefined, reviewed);
  const { duplicate } = useClipboard();
  useAnalysis();
  useRunFollower();

  const announce = stores.notices.getState().announce;
  const documentActions = stores.document.getState().actions;

  const commands = useMemo(() => {
    const fitView = () => void flow.fitView(fitOptions);
    const layout = () => {
      const nodes = flow.getNodes();
      const { edges } = toWorkflow(stores.document.getState());
      const positions = autoLayout(
        nodes.map((node) => ({ id: node.id, width: node.measured?.width ?? 240, height: node.measured?.height ?? 110 })),
        edges,
      );
      documentActions.moveNodes(positions);
      // Two frames: React Flow must have taken the new positions in before it can fit them.
      requestAnimationFrame(() => requestAnimationFrame(fitView));
      announce("Laid out the workflow; undo (Ctrl+Z) puts the nodes back.", "info");
    };
    const deleteSelection = () => {
      const { nodeIds, edgeIds } = stores.selection.getState();
      if (nodeIds.length + edgeIds.length > 0) return documentActions.removeElements(nodeIds, edgeIds);
      // Nothing selected: Delete acts on the node (or edge) the keyboard is on.
      const focused = document.activeElement?.closest<HTMLElement>(".react-flow__node, .react-flow__edge");
      const id = focused?.dataset.id ?? focused?.getAttribute("data-testid")?.replace(/^rf__(node|edge)-/, "");
      if (!focused || !id) return;
      if (focused.classList.contains("react-flow__node")) documentActions.removeElements([id], []);
      else documentActions.removeElements([], [id]);
    };
    const showNode = (nodeId: string) => {
      documentActions.select([nodeId]);
      const node = flow.getNode(nodeId);
      if (node) void flow.fitView({ nodes: [node], maxZoom: 1.2, duration: 200 });
    };
    const showProblems = () => {
      const { byNode } = stores.analysis.getState().analysis;
      const first = Object.entries(byNode).sort(([, a], [, b]) => b.errors - a.errors)[0];
      if (first) showNode(first[0]);
    };
    return {
      undo: documentActions.undo,
      redo: documentActions.redo,
      deleteSelection,
      layout,
      fitView,
      showProblems,
      showNode,
      openVersions: () => {
        setDialog("versions");
        // Another tab may have saved versions since the page was loaded.
        void saveActions.listVersions(workflowId).then((result) => {
          if (result.ok) setVersions(result.versions);
        });
      },
      openShortcuts: () => setDialog("shortcuts"),
      openRun: () => setDialog("run"),
      runTests: runActions.testDocument
        ? () => {
            const testDocument = runActions.testDocument!;
            setDialog("test");
            setTestState("running");
            stores.testMarks.getState().clear();
            void testDocument(workflowId, toWorkflow(stores.document.getState())).then(
              (result) => {
                setTestState(result);
                if (!result.ok) return;
                const failing: Record<string, string[]> = {};
                for (const outcome of result.outcomes) if (!outcome.pass && outcome.node) (failing[outcome.node] ??= []).push(outcome.name);
                stores.testMarks.getState().mark(failing);
                announce(result.failed ? `${result.failed} test case${result.failed === 1 ? "" : "s"} failed; the failing nodes are marked.` : `All ${result.passed} test cases passed.`, result.failed ? "error" : "success");
              },
              (error: unknown) => setTestState({ ok: false, error: `The test cases could not be run: ${error instanceof Error ? error.message : String(error)}` }),
            );
          }
        : undefined,
      toggleDrawer: (which: "palette" | "inspector") => setDrawer((current) => (current === which ? null : which)),
      toggleChat: () => setChatOpen((open) => !open),
      chatOpen,
    } satisfies ToolbarCommands;
  }, [announce, chatOpen, documentActions, flow, runActions, saveActions, stores, workflowId]);

  const shortcutHandlers = useMemo(
    () => ({
      undo: commands.undo,
      redo: commands.redo,
      deleteSelection: commands.deleteSelection,
      selectAll: () => documentActions.select(stores.document.getState().nodes.map((node) => node.id)),
      clearSelection: () => documentActions.select([]),
      duplicate,
      save: () => {
        void flush().then((ok) => announce(ok ? "Saved." : "Not saved; see the save status.", ok ? "success" : "error"));
      },
      layout: commands.layout,
      fitView: commands.fitView,
      help: () => setDialog("shortcuts"),
    }),
    [announce, commands, documentActions, duplicate, flush, stores],
  );
  useCanvasShortcuts(access.edit ? shortcutHandlers : readOnlyShortcuts(shortcutHandlers));

  const saveVersion = useCallback(
    async (note: string) => {
      await flush();
      const result = await saveActions.saveVersion(workflowId, toWorkflow(stores.document.getState()), note);
      if (!result.ok) return result.error;
      setVersions(result.versions);
      announce(`Saved version ${result.version.number}.`, "success");
      return null;
    },
    [announce, flush, saveActions, stores, workflowId],
  );

  const retestVersion = useCallback(
    async (number: number) => {
      if (!saveActions.retestVersion) return "Running a version's tests again is not available here.";
      const result = await saveActions.retestVersion(workflowId, number);
      if (!result.ok) return result.error;
      setVersions(result.versions);
      announce(`The test cases run again against version ${number}.`, "success");
      return null;
    },
    [announce, saveActions, workflowId],
  );

  const restoreVersion = useCallback(
    async (number: number) => {
      if (!(await flush())) return "The current changes could not be saved, so nothing was restored.";
      const result = await saveActions.restoreVersion(workflowId, number);
      if (!result.ok) return result.error;
      documentActions.replaceDocument(result.document);
      reviewed(result);
      setVersions(result.versions);
      setDialog(null);
      requestAnimationFrame(() => requestAnimationFrame(() => void flow.fitView(fitOptions)));
      announce(`Restored version ${number}. The state before it is kept as a version; Ctrl+Z also takes you back.`, "success");
      return null;
    },
    [announce, documentActions, flow, flush, reviewed, saveActions, workflowId],
  );

  const run = useCallback(
    async (input: Record<string, unknown>) => {
      if (!(await flush())) return { ok: false as const, error: "The workflow could not be saved, so it was not run. See the save status." };
      const result = await runActions.startRun(workflowId, input);
      if (!result.ok) return result;
      stores.runStatus.getState().started(result.runId);
      setDialog(null);
      announce("Run started; each node shows its status as it runs.", "info");
      return { ok: true as const };
    },
    [announce, flush, runActions, stores, workflowId],
  );

  const cancel = useCallback(
    (runId: string) => {
      void runActions.cancelRun(runId).then(() => announce("Asked the run to stop.", "info"));
    },
    [announce, runActions],
  );

  return (
    <div className={`canvas-editor${drawer ? ` drawer-${drawer}-open` : ""}`}>
      <a className="skip-link" href="#workflow-canvas" onClick={skipToCanvas}>
        Skip to the canvas
      </a>
      <CanvasToolbar workflowId={workflowId} status={status} commands={commands} drawer={drawer} access={access} />
      <RunPanel onCancel={cancel} />
      <RunTextFollower />
      <OriginChangeNotice
        workflowId={workflowId}
        entries={originNotices}
        approve={origins.approve}
        title="This workflow sends a credential to an origin no one approved"
        onApproved={(entry) => setOriginNotices((current) => withoutApproved(current, entry.nodeType, entry.credential, entry.origin))}
      />
      <ApprovalLooseningNotice
        workflowId={workflowId}
        entries={looseningNotices}
        approve={loosenings.approve}
        onApproved={(entry) => setLooseningNotices((current) => current.filter((item) => looseningKey(item) !== looseningKey(entry)))}
      />
      <div className="canvas-body">
        {access.edit ? (
          <NodePalette
            types={catalogue.types}
            mimeType={paletteMimeType}
            onAdd={(type) => {
              setDrawer(null);
              return addNode(type);
            }}
            servers={drawer === "palette" ? { ...paletteServers, onAdd: (id) => (setDrawer(null), paletteServers.onAdd(id)) } : paletteServers}
            onClose={() => setDrawer(null)}
          />
        ) : null}
        <div className="canvas-surface" id="workflow-canvas" tabIndex={-1}>
          <WorkflowCanvas />
          <NoticeRegion />
        </div>
        <InspectorPanel onClose={() => setDrawer(null)} />
        {chatOpen ? (
          <aside className="chat-playground" aria-label="Chat playground">
            <div className="chat-playground-heading">
              <h2>Chat</h2>
              <button type="button" className="button-quiet" onClick={() => setChatOpen(false)} aria-label="Close the chat playground">
                Close
              </button>
            </div>
            <ChatThreads
              workflowId={workflowId}
              initialThreads={null}
              decide={runActions.decideApproval}
              toolApps={runActions.toolApps}
              maxMessageChars={maxChatMessageChars}
              place="canvas"
              // Editors chat with the document on the canvas, saved or not; runners with the saved one.
              document={access.edit ? () => toWorkflow(stores.document.getState()) : undefined}
            />
          </aside>
        ) : null}
      </div>
      <VersionsDialog open={dialog === "versions"} versions={versions} onClose={() => setDialog(null)} onSave={saveVersion} onRestore={restoreVersion} onRetest={saveActions.retestVersion ? retestVersion : undefined} />
      <ShortcutsDialog open={dialog === "shortcuts"} onClose={() => setDialog(null)} />
      <TestDialog
        open={dialog === "test"}
        state={testState}
        onClose={() => setDialog(null)}
        onShowNode={(nodeId) => {
          setDialog(null);
          commands.showNode(nodeId);
        }}
      />
      {dialog === "run" ? (
        <LiveRunDialog
          open
          workflow={toWorkflow(stores.document.getState())}
          onShowNode={(nodeId) => {
            setDialog(null);
            commands.showNode(nodeId);
          }}
          onClose={() => setDialog(null)}
          onRun={run}
        />
      ) : null}
    </div>
  );
}
