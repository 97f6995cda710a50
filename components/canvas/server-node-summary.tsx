"use client";

import { useMemo, useState } from "react";
import { mcpServerChoice } from "@/lib/graph";
import type { CanvasServer, ServerTools } from "@/lib/canvas";
import type { ServerState } from "@/lib/store";
import { useCanvas, useServerStore } from "./canvas-context";

/** What an MCP server node shows under its title: which tools it offers, or why it cannot. */
export function ServerNodeSummary({ config }: { config: Record<string, unknown> }) {
  const choice = mcpServerChoice({ type: "mcp-server", config });
  const serverId = choice?.serverId ?? "";
  const server = useServerStore(useMemo(() => (state: ServerState) => state.byId.get(serverId), [serverId]));
  const tools = useServerStore(useMemo(() => (state: ServerState) => state.tools[serverId], [serverId]));
  if (!choice) return <p className="wf-node-server is-problem">No server chosen: pick one in the inspector.</p>;
  const unavailable = unavailableText(server);
  if (server?.availability === "not-granted") return <NotGranted server={server} />;
  if (unavailable) return <p className="wf-node-server is-problem">{unavailable}</p>;
  return <p className="wf-node-server">{offerText(choice.toolNames, tools)}</p>;
}

/** "Not granted", with a Grant button for people who may grant (the grant is recorded outside the document). */
function NotGranted({ server }: { server: CanvasServer }) {
  const { grantServer } = useCanvas();
  const [state, setState] = useState<{ pending: boolean; error?: string }>({ pending: false });
  const grant = async () => {
    if (!grantServer) return;
    setState({ pending: true });
    const result = await grantServer(server.id);
    setState(result.ok ? { pending: false } : { pending: false, error: result.error });
  };
  return (
    <div className="wf-node-server is-problem">
      <p>Not granted to this workflow</p>
      {grantServer ? (
        <button type="button" className="button-quiet nodrag" onClick={grant} disabled={state.pending} aria-label={`Grant ${server.name} to this workflow`}>
          {state.pending ? "Granting…" : "Grant"}
        </button>
      ) : (
        <p>An editor can grant it.</p>
      )}
      {state.error ? <p role="alert">{state.error}</p> : null}
    </div>
  );
}

/** The title an MCP server node shows: its server's name, else its id. */
export function useServerTitle(config: Record<string, unknown>, enabled: boolean): string | undefined {
  const serverId = enabled ? (mcpServerChoice({ type: "mcp-server", config })?.serverId ?? "") : "";
  const server = useServerStore(useMemo(() => (state: ServerState) => (serverId ? state.byId.get(serverId) : undefined), [serverId]));
  return enabled ? (server?.name ?? (serverId || undefined)) : undefined;
}

function unavailableText(server: CanvasServer | undefined): string | null {
  if (!server) return "Not in the registry";
  if (server.availability === "disabled") return "Switched off in the registry";
  if (server.availability === "refused") return "Refused by the registry";
  if (server.availability === "not-granted") return "Not granted to this workflow";
  if (server.availability === "reconnect") return "Reconnect needed: connect it again on the Servers page";
  return null;
}

function offerText(toolNames: readonly string[] | undefined, tools: ServerTools | undefined): string {
  const total = tools?.status === "ready" ? tools.tools.length : undefined;
  if (!toolNames) return total === undefined ? (tools?.status === "failed" ? "All tools (could not list them)" : "All tools") : `All ${total} tools`;
  const shown = toolNames.slice(0, 3).join(", ") + (toolNames.length > 3 ? ", …" : "");
  return `${toolNames.length}${total === undefined ? "" : ` of ${total}`} tool${toolNames.length === 1 ? "" : "s"}: ${shown}`;
}
