"use client";

import { useCallback, useId, useMemo } from "react";
import type { AgentToolCost, CanvasNodeType, CanvasProblem } from "@/lib/canvas";
import { configIssues } from "@/lib/canvas";
import { type ConfigIssue, configIssueInWords, type ConfigSchema, lookupNodeType, mcpServerNodeType, type NodeTypes } from "@/lib/graph";
import type { JsonSchema } from "@/lib/manifest/browser";
import type { CanvasNode } from "@/lib/store";
import { type ConfigPath, orderedProperties, pathKey, setAt, shownProperties } from "./config-value";
import { ProblemItems } from "./problem-items";
import { ScheduleFireTimes } from "./schedule-fire-times";
import { WebhookPanel } from "./webhook-panel";
import type { IssuedWebhookView } from "@/components/workflows/action-types";
import { SchemaField } from "./schema-field";
import { type ServerPickerData, ServerToolPicker } from "./server-tool-picker";
import { ApprovalPolicyFields, type WiredToolSource } from "./approval-policy-fields";
import { NodeConnections } from "./node-connections";
import type { HandleChoices } from "@/lib/canvas";

/**
 * The inspector of one node: its label, a form generated from its type's
 * config schema that checks as you type (messages beside each field), its
 * problems, and for an agent the cost of its wired tools.
 */
export function NodeInspector({
  node,
  entry,
  nodeTypes,
  problems,
  toolCost,
  serverData,
  toolSources = [],
  onApprovalChange,
  webhook,
  connections,
  onChange,
  onDelete,
}: {
  node: CanvasNode;
  entry: CanvasNodeType | undefined;
  nodeTypes: NodeTypes;
  problems: readonly CanvasProblem[];
  toolCost: AgentToolCost | undefined;
  /** For an MCP server node: its server, that server's tools, and the servers to choose from. */
  serverData?: ServerPickerData;
  /** For an agent: the service, server and task edges that bring it tools, with their approval policies. */
  toolSources?: readonly WiredToolSource[];
  onApprovalChange?: (edgeId: string, approval: WiredToolSource["approval"]) => void;
  /** For a Start on webhook: the workflow, and how to make its URL (editors). */
  webhook?: { workflowId: string; issue?: () => Promise<IssuedWebhookView> };
  /** For editors: the Connect form's choices and what joins two handles. */
  connections?: {
    listChoices: () => HandleChoices[];
    revision: unknown;
    connect: (handle: string, far: { nodeId: string; handle: string }) => boolean;
  };
  onChange: (patch: { config?: Record<string, unknown>; label?: string }, mergeKey: string) => void;
  onDelete: () => void;
}) {
  const info = lookupNodeType(nodeTypes, node.data.type);
  const labelId = useId();
  const idPrefix = `inspector-${node.id}`;
  const config = node.data.config;
  const issues = useMemo(() => (info ? configIssues(info, config) : []), [info, config]);
  const schema = (info?.configSchema ?? entry?.configSchema) as JsonSchema | undefined;
  const properties = useMemo(() => (schema ? shownProperties(orderedProperties(schema, entry?.uiOrder), config) : []), [schema, entry?.uiOrder, config]);
  const known = new Set(properties.map(([name]) => name));
  const general = issues.filter((issue) => !issue.field || !known.has(issue.field.split(".")[0]));

  const messagesFor = useCallback((path: ConfigPath, inside = false) => messagesAt(issues, pathKey(path), inside, schema), [issues, schema]);
  const change = useCallback(
    (path: ConfigPath, value: unknown) => onChange({ config: setAt(config, path, value) as Record<string, unknown> }, `config:${node.id}:${pathKey(path)}`),
    [config, node.id, onChange],
  );

  return (
    <section className="inspector" aria-labelledby={`${idPrefix}-heading`}>
      <header className="inspector-header">
        <h2 id={`${idPrefix}-heading`}>{node.data.label || info?.title || node.data.type}</h2>
        <p className="muted small">
          {info?.title ?? `Unknown type “${node.data.type}”`} · node <code>{node.id}</code>
        </p>
        {entry?.description ? <p className="small inspector-description">{entry.description}</p> : null}
      </header>

      <div className="form-field">
        <label htmlFor={labelId}>Label</label>
        <input
          id={labelId}
          value={node.data.label ?? ""}
          placeholder={info?.title ?? node.data.type}
          maxLength={80}
          aria-describedby={`${labelId}-hint`}
          onChange={(event) => onChange({ label: event.target.value }, `label:${node.id}`)}
        />
        <p id={`${labelId}-hint`} className="field-hint">
          The name shown on the canvas instead of the type&rsquo;s title.
        </p>
      </div>

      {toolCost ? <ToolCostSummary cost={toolCost} nodeId={node.id} /> : null}
      {onApprovalChange ? <ApprovalPolicyFields nodeId={node.id} sources={toolSources} onChange={onApprovalChange} /> : null}

      {node.data.type === mcpServerNodeType && serverData ? (
        <ServerToolPicker
          nodeId={node.id}
          config={config}
          data={serverData}
          messages={{ serverId: messagesFor(["serverId"]), toolNames: messagesFor(["toolNames"], true) }}
          onChange={(next, mergeKey) => onChange({ config: next }, mergeKey)}
        />
      ) : (
      <form className="config-form" aria-label={`Settings of ${node.id}`} onSubmit={(event) => event.preventDefault()} noValidate>
        <h3>Settings</h3>
        {general.length > 0 ? (
          <ul className="field-error-list" aria-label="Settings problems">
            {general.map((issue, index) => (
              <li key={index} className="field-error">
                {configIssueInWords(issue, schema as ConfigSchema | undefined)}
              </li>
            ))}
          </ul>
        ) : null}
        {properties.length === 0 ? <p className="muted small">This node type has no settings.</p> : null}
        {properties.map(([name, property]) => (
          <SchemaField
            key={`${node.id}:${name}`}
            name={name}
            schema={property}
            path={[name]}
            value={config[name]}
            required={(schema?.required ?? []).includes(name)}
            messagesFor={messagesFor}
            onChange={change}
            idPrefix={idPrefix}
          />
        ))}
      </form>
      )}
      {node.data.type === "start" ? <ScheduleFireTimes nodeId={node.id} config={config} /> : null}
      {node.data.type === "start" && config.trigger === "webhook" && webhook ? (
        <WebhookPanel workflowId={webhook.workflowId} nodeId={node.id} signature={String(config.signature ?? "standard-webhooks")} issue={webhook.issue} />
      ) : null}

      {connections ? <NodeConnections nodeId={node.id} listChoices={connections.listChoices} revision={connections.revision} onConnect={connections.connect} /> : null}

      <section className="inspector-problems" aria-label={`Problems of ${node.id}`}>
        <h3>Problems</h3>
        {problems.length === 0 ? <p className="muted small">None.</p> : <ProblemItems problems={problems} label={`Problems of ${node.id}`} />}
      </section>

      <button type="button" className="button-quiet button-danger" onClick={onDelete}>
        Delete node
      </button>
    </section>
  );
}

function ToolCostSummary({ cost, nodeId }: { cost: AgentToolCost; nodeId: string }) {
  return (
    <section className={`tool-cost${cost.discovery ? " is-discovery" : ""}`} aria-label="Tool definitions">
      <h3>Tools</h3>
      {cost.tools === 0 ? (
        <p className="small">No tools wired: the agent answers with one model request. Wire a service, an MCP server or a Task Start to its tool socket.</p>
      ) : (
        <>
          <p className="small">
            <strong>
              {cost.tools} tool{cost.tools === 1 ? "" : "s"}, ≈{cost.tokens.toLocaleString("en")} tokens
            </strong>{" "}
            of definitions (threshold {cost.threshold.toLocaleString("en")}).
          </p>
          <ul className="agent-tool-list" aria-label={`Tools of ${nodeId}`}>
            {cost.items.map((item, index) => (
              <li key={`${item.name}:${index}`}>
                <code>{item.name}</code> <span className="muted small">from {item.from}</span>{" "}
                <span className="agent-tool-tokens small">≈{item.tokens.toLocaleString("en")} tok</span>
              </li>
            ))}
          </ul>
          <p className="small">
            {cost.discovery
              ? "Starts in progressive-discovery mode: the model gets search_tools and call_tool instead, and finds tools by describing the job."
              : "Every tool is offered to the model directly."}
          </p>
        </>
      )}
    </section>
  );
}

/** Messages for a field, in words that name it: exact matches, or (for JSON fields) anything inside it. */
function messagesAt(issues: readonly ConfigIssue[], key: string, inside: boolean, schema: JsonSchema | undefined): string[] {
  return issues
    .filter((issue) => issue.field === key || (inside && issue.field?.startsWith(`${key}.`)))
    .map((issue) => configIssueInWords(issue, schema as ConfigSchema | undefined));
}
