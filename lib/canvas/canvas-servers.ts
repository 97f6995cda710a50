import { mcpServerChoice, type ServerApprovalDefaultsInput, type WorkflowNode } from "../graph";
import type { ToolSpec } from "./canvas-catalogue";

/**
 * Whether a registry server can be used by this workflow, as app/ reads it
 * from the registry (and, once accounts exist, from the workflow's grants):
 * - `available`: enabled and its stored entry passes the registry's checks;
 * - `disabled`: switched off in the registry;
 * - `refused`: its stored entry fails the registry's checks;
 * - `not-granted`: it exists, but this workflow may not use it;
 * - `reconnect`: its OAuth authorization expired and cannot be refreshed: a person must connect it again.
 * A server id the canvas was not told about is missing from the registry.
 */
export type ServerAvailability = "available" | "disabled" | "refused" | "not-granted" | "reconnect";

/** A registry server as the canvas gets it: plain data, never a command, URL or secret. */
export interface CanvasServer {
  id: string;
  name: string;
  description?: string;
  availability: ServerAvailability;
  /** Why it is not available, in words (the registry's refusal, a grant's absence). */
  reason?: string;
  /** The registry's default approval policies for its tools (set on /servers): the canvas shows them on an edge without its own. */
  approval?: ServerApprovalDefaultsInput;
  /** Its tools' names from the server's tool index, sent with the page for the palette's search (editors only). */
  toolNames?: string[];
}

/** What the canvas knows of a server's tools: listed lazily, since listing starts or reaches the server. */
export type ServerTools =
  | { status: "loading" }
  | { status: "ready"; tools: ToolSpec[] }
  | { status: "failed"; error: string };

export type ServerToolsById = Readonly<Record<string, ServerTools>>;

/**
 * The tools an MCP server node offers: its server's listed tools, narrowed to
 * its chosen `toolNames` (in the server's order). Empty while they are still
 * being listed, or when listing failed.
 */
export function serverNodeTools(node: Pick<WorkflowNode, "type" | "config">, tools: ServerToolsById): ToolSpec[] {
  const choice = mcpServerChoice(node);
  const listed = choice ? tools[choice.serverId] : undefined;
  if (!choice || listed?.status !== "ready") return [];
  if (!choice.toolNames) return listed.tools;
  const chosen = new Set(choice.toolNames);
  return listed.tools.filter((tool) => chosen.has(tool.name));
}

/** The words to search a server by in the palette: its name, id, description and its tools' names (as listed on the canvas, else from the page's tool index). */
export function serverSearchText(server: CanvasServer, tools: ServerTools | undefined): string {
  const names = (tools?.status === "ready" ? tools.tools.map((tool) => tool.name) : (server.toolNames ?? [])).join(" ");
  return `${server.name} ${server.id} ${server.description ?? ""} mcp server ${names}`.toLowerCase();
}
