"use client";

import { type DragEvent, useDeferredValue, useId, useMemo, useState } from "react";
import { type CanvasNodeType, type CanvasServer, type ServerTools, serverSearchText } from "@/lib/canvas";
import { ServerPalette } from "./server-palette";

/** The palette's MCP server entries and what it needs to show them. */
export interface PaletteServers {
  servers: readonly CanvasServer[];
  tools: Readonly<Record<string, ServerTools>>;
  onAdd: (serverId: string) => void;
}

/**
 * The node types to add, grouped by category, with a search box, and the
 * registry's MCP servers in a section of their own. Each item can be
 * dragged onto the canvas (HTML5 drag and drop) or added with its Add
 * button, which keyboard users and tests use.
 */
export function NodePalette({
  types,
  mimeType,
  onAdd,
  servers,
  onClose,
}: {
  types: readonly CanvasNodeType[];
  mimeType: string;
  onAdd: (type: string) => void;
  servers: PaletteServers;
  /** Closes the palette where it is a drawer (small screens). */
  onClose?: () => void;
}) {
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query);
  const searchId = useId();
  const addable = useMemo(() => types.filter((type) => type.category !== "MCP servers"), [types]);
  const groups = useMemo(() => groupByCategory(addable.filter((type) => matches(type, deferred))), [addable, deferred]);
  const shown = groups.reduce((sum, group) => sum + group.types.length, 0);
  const words = useMemo(() => searchWords(deferred), [deferred]);
  const available = useMemo(() => servers.servers.filter((server) => server.availability === "available" || server.availability === "not-granted"), [servers.servers]);
  const shownServers = useMemo(
    () => available.filter((server) => words.every((word) => serverSearchText(server, servers.tools[server.id]).includes(word))),
    [available, servers.tools, words],
  );
  const builtins = addable.filter((type) => type.builtin).length;

  return (
    <nav className="palette" id="canvas-palette" aria-label="Node palette">
      {onClose ? (
        <button type="button" className="button-quiet drawer-close" onClick={onClose}>
          Close the palette
        </button>
      ) : null}
      <h2 className="visually-hidden">Add to the workflow</h2>
      <div className="palette-search" role="search">
        <label htmlFor={searchId}>Search node types and servers</label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder="agent, weather, echo…"
          onChange={(event) => setQuery(event.target.value)}
        />
        <p className="muted small" role="status" aria-live="polite">
          {shown === addable.length ? `${shown} node types: ${addable.length - builtins} from nodes/, ${builtins} built-in` : `${shown} of ${addable.length} node types`}
          {available.length > 0 ? ` · ${shownServers.length === available.length ? "" : `${shownServers.length} of `}${available.length} MCP server${available.length === 1 ? "" : "s"}` : ""}
        </p>
      </div>
      {groups.map((group) => (
        <section key={group.category} className="palette-group" aria-label={group.category}>
          <h3>{group.category}</h3>
          <ul className="palette-list" aria-label={`${group.category} node types`}>
            {group.types.map((type) => (
              <PaletteItem key={type.name} type={type} mimeType={mimeType} onAdd={onAdd} />
            ))}
          </ul>
        </section>
      ))}
      {shown === 0 ? <p className="muted small palette-empty">No node type matches “{query}”.</p> : null}
      <ServerPalette servers={shownServers} tools={servers.tools} words={words} mimeType={mimeType} onAdd={servers.onAdd} />
    </nav>
  );
}

function PaletteItem({ type, mimeType, onAdd }: { type: CanvasNodeType; mimeType: string; onAdd: (type: string) => void }) {
  const errors = type.lint.filter((finding) => finding.severity === "error").length;
  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(mimeType, type.name);
    event.dataTransfer.effectAllowed = "copy";
  };
  return (
    <li
      className={`palette-item${type.usable ? "" : " is-unusable"}`}
      draggable={type.usable}
      onDragStart={type.usable ? onDragStart : undefined}
      aria-label={type.title}
      title={type.whenToUse || type.description}
    >
      <div className="palette-item-text">
        <span className="palette-item-title">{type.title}</span>
        <span className="palette-item-meta">
          {type.hasToolExchange ? <span className="badge badge-callback">agent</span> : null}
          {Object.keys(type.tools).length > 0 ? <span className="badge badge-offers">tools</span> : null}
          {type.offline ? <span className="badge badge-offline">offline</span> : null}
          {errors > 0 ? <span className="badge badge-error">{errors} lint error{errors === 1 ? "" : "s"}</span> : null}
        </span>
        <span className="palette-item-description">{type.description}</span>
      </div>
      <button type="button" className="button-quiet palette-add" aria-label={`Add ${type.title}`} disabled={!type.usable} onClick={() => onAdd(type.name)}>
        Add
      </button>
    </li>
  );
}

function searchWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

function matches(type: CanvasNodeType, query: string): boolean {
  const words = searchWords(query);
  if (words.length === 0) return true;
  const text = `${type.title} ${type.name} ${type.category} ${type.description} ${type.whenToUse}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

function groupByCategory(types: readonly CanvasNodeType[]): { category: string; types: CanvasNodeType[] }[] {
  const groups = new Map<string, CanvasNodeType[]>();
  for (const type of types) groups.set(type.category, [...(groups.get(type.category) ?? []), type]);
  return [...groups].map(([category, list]) => ({ category, types: list }));
}
