"use client";

import { type NodeProps, useStore } from "@xyflow/react";
import { memo, useMemo } from "react";
import { lookupNodeType, type NodeHandle, nodeHandles } from "@/lib/graph";
import { type CanvasNode, nodeLiveText, nodeProblemCounts, nodeRunStatus, nodeTestFailures, nodeToolCost } from "@/lib/store";
import { useAnalysisStore, useCanvas, useRunStatusStore, useTestMarkStore } from "./canvas-context";
import { NodeHandleView } from "./node-handle";
import { NodeOutputs } from "./node-outputs";
import { ServerNodeSummary, useServerTitle } from "./server-node-summary";
import { ApprovalBadge } from "./approval-badge";
import { selectPortsCrowded } from "./handle-target";

/**
 * A workflow node on the canvas: title, kind, signal ports (inputs left,
 * outputs right), tool connectors (an agent's socket at the bottom, a
 * provider's plug on top, a Task Start's task handle at the bottom),
 * problems, an agent's tool cost, the run status and a failing test case. Memoised on what it
 * draws (sameNodeView), and it reads only its own slices of the stores, so a
 * 500-node canvas stays smooth.
 */
export const WorkflowNodeView = memo(function WorkflowNodeView({ id, data, selected }: NodeProps<CanvasNode>) {
  const { nodeTypes, entries } = useCanvas();
  const info = lookupNodeType(nodeTypes, data.type);
  const entry = entries.get(data.type);
  const handles = useMemo(() => (info ? nodeHandles({ config: data.config }, info) : []), [info, data.config]);
  const counts = useAnalysisStore(useMemo(() => nodeProblemCounts(id), [id]));
  const cost = useAnalysisStore(useMemo(() => nodeToolCost(id), [id]));
  const status = useRunStatusStore(useMemo(() => nodeRunStatus(id), [id]));
  const liveText = useRunStatusStore(useMemo(() => nodeLiveText(id), [id]));
  const testFailures = useTestMarkStore(useMemo(() => nodeTestFailures(id), [id]));
  const [errors, warnings] = counts.split(":").map(Number);
  const crowded = useStore(selectPortsCrowded);

  const isServer = data.type === "mcp-server";
  const serverTitle = useServerTitle(data.config, isServer);
  const title = serverTitle ?? info?.title ?? data.type;
  const inputs = handles.filter((handle) => handle.role === "input");
  const outputs = handles.filter((handle) => handle.role === "output");
  const top = handles.filter((handle) => handle.role === "provider");
  const bottom = handles.filter((handle) => handle.role === "consumer" || handle.role === "task");
  const role = !info ? "unknown" : info.hasToolExchange ? "agent" : top.length > 0 ? "service" : entry?.builtin ? "builtin" : "step";
  const classes = ["wf-node", `wf-node-${role}`, selected ? "is-selected" : "", errors > 0 ? "has-errors" : warnings > 0 ? "has-warnings" : "", status ? `run-${status}` : "", testFailures ? "test-failing" : ""];

  return (
    <div className={classes.filter(Boolean).join(" ")} data-node-type={data.type}>
      {top.length > 0 ? <ConnectorRow handles={top} nodeId={id} placement="top" /> : null}
      <div className="wf-node-header">
        <span className="wf-node-title">{data.label || title}</span>
        <span className="wf-node-badges">
          <span className={`badge wf-kind wf-kind-${role}`}>{kindLabel(data.type, info?.kind, entry?.builtin)}</span>
          {entry?.offline ? (
            <span className="badge badge-offline" title="The built-in deterministic model: no network, no API key">
              offline
            </span>
          ) : null}
          {data.approvals ? <ApprovalBadge approvals={data.approvals} /> : null}
        </span>
      </div>
      {data.label ? <div className="wf-node-type">{title}</div> : null}
      {isServer ? <ServerNodeSummary config={data.config} /> : null}
      {!info ? <div className="wf-node-unknown">Unknown node type “{data.type}”</div> : null}
      {inputs.length > 0 || outputs.length > 0 ? (
        <div className="wf-node-ports">
          <ul className="wf-port-list wf-inputs" aria-label={`Inputs of ${id}`}>
            {inputs.map((handle) => (
              // The name is a plain text node, not a span: 500 nodes' ports are thousands of elements fewer.
              <li key={handle.name} className="wf-port">
                <NodeHandleView handle={handle} nodeId={id} inTabOrder={!crowded || inputs.length === 1} />
                {handle.name}
                {handle.port?.required ? <span className="wf-port-required" aria-label="required">*</span> : null}
              </li>
            ))}
          </ul>
          <ul className="wf-port-list wf-outputs" aria-label={`Outputs of ${id}`}>
            {outputs.map((handle) => (
              <li key={handle.name} className="wf-port">
                {handle.name}
                <NodeHandleView handle={handle} nodeId={id} inTabOrder={!crowded || outputs.length === 1} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <NodeOutputs id={id} type={data.type} />
      {liveText ? <LiveTextPreview text={liveText} name={data.label || title} /> : null}
      <div className="wf-node-footer">
        {cost ? (
          <span className={`wf-tool-cost${cost.discovery ? " is-discovery" : ""}`} title={costTitle(cost)}>
            {cost.tools === 0 ? "no tools" : `${cost.tools} tool${cost.tools === 1 ? "" : "s"} · ≈${cost.tokens.toLocaleString("en")} tok`}
            {cost.discovery ? " · discovery" : ""}
          </span>
        ) : null}
        {errors > 0 || warnings > 0 ? (
          <span className={`badge ${errors > 0 ? "badge-error" : "badge-warning"} wf-problem-badge`}>
            {errors > 0 ? `${errors} error${errors === 1 ? "" : "s"}` : `${warnings} warning${warnings === 1 ? "" : "s"}`}
          </span>
        ) : null}
        {testFailures ? (
          <span className="badge badge-error wf-test-badge" title={`Failing here: ${testFailures.join(", ")}`}>
            test failing<span className="visually-hidden">: {testFailures.join(", ")}</span>
          </span>
        ) : null}
        {status ? <span className={`wf-run-status wf-run-${status}`}>{status.replace(/_/g, " ")}</span> : null}
      </div>
      {bottom.length > 0 ? <ConnectorRow handles={bottom} nodeId={id} placement="bottom" /> : null}
    </div>
  );
}, sameNodeView);

/**
 * A node draws only its id, data and selection (the rest it reads from the
 * stores). React Flow also passes its measured size, position and z-index:
 * comparing those would draw all 500 nodes again once React Flow has measured
 * them, and a dragged node on every frame.
 */
export function sameNodeView(before: NodeProps<CanvasNode>, after: NodeProps<CanvasNode>): boolean {
  return before.id === after.id && before.data === after.data && before.selected === after.selected;
}

/** Tool connectors along the top or bottom edge, each with its name. */
function ConnectorRow({ handles, nodeId, placement }: { handles: NodeHandle[]; nodeId: string; placement: "top" | "bottom" }) {
  return (
    <div className={`wf-connectors wf-connectors-${placement}`}>
      {handles.map((handle, index) => {
        const left = `${((index + 1) / (handles.length + 1)) * 100}%`;
        return (
          <span key={`${handle.role}:${handle.name}`} className={`wf-connector wf-connector-${handle.role}`} style={{ left }}>
            <span className="wf-connector-name">{handle.role === "task" ? "task" : handle.role === "consumer" ? `tools: ${handle.name}` : `offers: ${handle.name}`}</span>
            <NodeHandleView handle={handle} nodeId={nodeId} />
          </span>
        );
      })}
    </div>
  );
}

function kindLabel(type: string, kind: string | undefined, builtin: boolean | undefined): string {
  if (builtin) return { start: "Start", end: "End", "task-start": "Task Start", "task-end": "Task End", "mcp-server": "MCP server" }[type] ?? "Built-in";
  if (kind === "CallbackNode") return "Callback";
  if (kind === "PromiseNode") return "Promise";
  return "Unknown";
}

function costTitle(cost: { tools: number; tokens: number; discovery: boolean; threshold: number }): string {
  if (cost.tools === 0) return "No tools wired: the agent answers in one model request.";
  return cost.discovery
    ? `Tool definitions ≈${cost.tokens} tokens, over ${cost.threshold}: the agent starts in progressive-discovery mode (search_tools + call_tool).`
    : `Tool definitions ≈${cost.tokens} tokens, under ${cost.threshold}: every tool is offered directly.`;
}

/** How much of an agent's live text its node shows: the end of what it wrote so far. */
const previewChars = 140;

/** An agent's text as its model writes it, during a run: the last words, read out politely as they grow. */
function LiveTextPreview({ text, name }: { text: string; name: string }) {
  const shown = text.length > previewChars ? `…${text.slice(-previewChars).trimStart()}` : text;
  return (
    <p className="wf-live-text nodrag" role="status" aria-live="polite" aria-label={`${name} is writing`}>
      {shown}
    </p>
  );
}
