"use client";

import Link from "next/link";
import type { CanvasServer, ServerTools } from "@/lib/canvas";

/**
 * The palette's MCP servers: every available registry server, found by its
 * name, id and its tools' names (sent with the page from the server's tool index). Add puts an MCP server node
 * on the canvas; dragging works as for node types.
 */
export function ServerPalette({
  servers,
  tools,
  words,
  mimeType,
  onAdd,
}: {
  servers: readonly CanvasServer[];
  tools: Readonly<Record<string, ServerTools>>;
  /** The search's words, lower-case; a server is shown when every word is in its text. */
  words: readonly string[];
  mimeType: string;
  onAdd: (serverId: string) => void;
}) {
  return (
    <section className="palette-group palette-servers" aria-label="MCP servers">
      <h3>MCP servers</h3>
      {servers.length === 0 ? (
        <p className="muted small palette-empty">
          {words.length > 0 ? "No MCP server matches. " : "No MCP server is registered yet. "}
          <Link href="/servers/new">Register a server</Link>
        </p>
      ) : (
        <ul className="palette-list" aria-label="MCP servers to add">
          {servers.map((server) => (
            <ServerItem key={server.id} server={server} tools={tools[server.id]} words={words} mimeType={mimeType} onAdd={onAdd} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ServerItem({ server, tools, words, mimeType, onAdd }: { server: CanvasServer; tools: ServerTools | undefined; words: readonly string[]; mimeType: string; onAdd: (serverId: string) => void }) {
  const names = tools?.status === "ready" ? tools.tools.map((tool) => tool.name) : (server.toolNames ?? []);
  const matching = words.length > 0 ? names.filter((name) => words.some((word) => name.toLowerCase().includes(word))) : [];
  return (
    <li
      className="palette-item palette-server"
      draggable
      onDragStart={(event) => {
        event.dataTransfer.setData(mimeType, `mcp-server:${server.id}`);
        event.dataTransfer.effectAllowed = "copy";
      }}
      aria-label={server.name}
      title={server.description ?? `MCP server ${server.id}`}
    >
      <div className="palette-item-text">
        <span className="palette-item-title">{server.name}</span>
        <span className="palette-item-meta">
          <span className="badge badge-offers">MCP</span>
          <code className="small">{server.id}</code>
          <span className="small muted">{toolCount(tools, server.toolNames)}</span>
        </span>
        {server.description ? <span className="palette-item-description">{server.description}</span> : null}
        {matching.length > 0 ? <span className="palette-item-description">Tools: {matching.join(", ")}</span> : null}
      </div>
      <button type="button" className="button-quiet palette-add" aria-label={`Add ${server.name}`} onClick={() => onAdd(server.id)}>
        Add
      </button>
    </li>
  );
}

function toolCount(tools: ServerTools | undefined, indexed: readonly string[] | undefined): string {
  if (!tools) return indexed ? `${indexed.length} tool${indexed.length === 1 ? "" : "s"}` : "";
  if (tools.status === "loading") return "listing tools…";
  if (tools.status === "failed") return "tools could not be listed";
  return `${tools.tools.length} tool${tools.tools.length === 1 ? "" : "s"}`;
}
