"use client";

import Link from "next/link";
import { useId } from "react";
import type { CanvasServer, ServerTools } from "@/lib/canvas";

/** What the picker knows about the node's server and the others it may switch to. */
export interface ServerPickerData {
  server: CanvasServer | undefined;
  tools: ServerTools | undefined;
  servers: readonly CanvasServer[];
}

/**
 * The settings of an MCP server node: which registry server, and which of
 * its tools it offers (all of them, or the ticked ones), each tool with its
 * description and input schema. Writes `serverId` and `toolNames`.
 */
export function ServerToolPicker({
  nodeId,
  config,
  data,
  messages,
  onChange,
}: {
  nodeId: string;
  config: Record<string, unknown>;
  data: ServerPickerData;
  /** Config issues by field (serverId, toolNames), already in words. */
  messages: Record<string, string[]>;
  onChange: (config: Record<string, unknown>, mergeKey: string) => void;
}) {
  const serverFieldId = useId();
  const serverId = typeof config.serverId === "string" ? config.serverId : "";
  const chosen = Array.isArray(config.toolNames) ? (config.toolNames as string[]) : undefined;
  const { server, tools } = data;
  const options = data.servers.some((candidate) => candidate.id === serverId) || !serverId ? data.servers : [{ id: serverId, name: `${serverId} (not in the registry)`, availability: "available" as const }, ...data.servers];
  const setTools = (next: string[] | undefined) => {
    const { toolNames: _old, ...rest } = config;
    onChange(next ? { ...rest, toolNames: next } : rest, `config:${nodeId}:toolNames`);
  };

  return (
    <form className="config-form server-picker" aria-label={`Settings of ${nodeId}`} onSubmit={(event) => event.preventDefault()} noValidate>
      <h3>Server</h3>
      <div className="form-field">
        <label htmlFor={serverFieldId}>Server</label>
        <select
          id={serverFieldId}
          value={serverId}
          aria-invalid={messages.serverId?.length ? true : undefined}
          aria-describedby={messages.serverId?.length ? `${serverFieldId}-error` : undefined}
          onChange={(event) => onChange({ serverId: event.target.value }, `config:${nodeId}:serverId`)}
        >
          {!serverId ? <option value="">Choose a server…</option> : null}
          {options.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
              {candidate.availability === "available" ? "" : ` (${candidate.availability.replace("-", " ")})`}
            </option>
          ))}
        </select>
        {messages.serverId?.length ? (
          <p id={`${serverFieldId}-error`} className="field-error">
            {messages.serverId.join(" ")}
          </p>
        ) : null}
        {server ? (
          <p className="field-hint">
            <code>{server.id}</code>
            {server.description ? ` · ${server.description}` : ""} · <Link href={`/servers/${encodeURIComponent(server.id)}`}>Open on the Servers page</Link>
          </p>
        ) : null}
      </div>

      <fieldset className="server-tools">
        <legend>Tools to offer</legend>
        <label className="choice">
          <input type="radio" name={`${nodeId}-tool-mode`} checked={!chosen} onChange={() => setTools(undefined)} /> All tools
          {tools?.status === "ready" ? ` (${tools.tools.length})` : ""}
        </label>
        <label className="choice">
          <input type="radio" name={`${nodeId}-tool-mode`} checked={Boolean(chosen)} onChange={() => setTools(chosen ?? [])} /> Only the ticked tools
        </label>
        {messages.toolNames?.length ? <p className="field-error">{messages.toolNames.join(" ")}</p> : null}
        <ToolChoices tools={tools} chosen={chosen} onToggle={(name, on) => setTools(on ? [...(chosen ?? []), name] : (chosen ?? []).filter((other) => other !== name))} />
      </fieldset>
    </form>
  );
}

function ToolChoices({ tools, chosen, onToggle }: { tools: ServerTools | undefined; chosen: string[] | undefined; onToggle: (name: string, on: boolean) => void }) {
  if (!tools || tools.status === "loading") return <p className="muted small">Listing the server&rsquo;s tools…</p>;
  if (tools.status === "failed") return <p className="field-error">The tools could not be listed: {tools.error}</p>;
  if (tools.tools.length === 0) return <p className="muted small">The server lists no tools.</p>;
  return (
    <ul className="server-tool-list" aria-label="Tools of the server">
      {tools.tools.map((tool) => (
        <li key={tool.name} className="server-tool">
          <label className="choice">
            <input type="checkbox" checked={chosen ? chosen.includes(tool.name) : true} disabled={!chosen} onChange={(event) => onToggle(tool.name, event.target.checked)} />{" "}
            <code>{tool.name}</code>
          </label>
          {tool.description ? <p className="small server-tool-description">{tool.description}</p> : null}
          <details className="server-tool-schema">
            <summary>Input schema of {tool.name}</summary>
            <pre tabIndex={0}>{JSON.stringify(tool.inputSchema, null, 2)}</pre>
          </details>
        </li>
      ))}
    </ul>
  );
}
