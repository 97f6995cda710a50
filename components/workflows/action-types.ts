import type { GraphProblem, Workflow } from "@/lib/graph";

/**
 * What the workflows' server actions answer (app/actions/workflows.ts).
 * Declared here, beside the components that read them, so components take
 * the actions as props and never import app/.
 */
export type ActionFailure = { ok: false; error: string; field?: string };
export type ActionResult<T extends object = object> = ({ ok: true } & T) | ActionFailure;

export type ImportResult = ActionResult<{ id: string; name: string }> | (ActionFailure & { problems: GraphProblem[] });

/** One saved version as the canvas lists it (dates as ISO text: they cross to the browser). */
export interface VersionItem {
  number: number;
  note: string;
  createdAt: string;
}

/** The actions the workflows list calls. */
export interface WorkflowListActions {
  create(name: string): Promise<ActionResult<{ id: string }>>;
  rename(id: string, name: string): Promise<ActionResult<{ name: string }>>;
  duplicate(id: string): Promise<ActionResult<{ id: string; name: string }>>;
  remove(id: string): Promise<ActionResult>;
  importJson(text: string): Promise<ImportResult>;
}

/** The actions the canvas calls to save its document and versions. */
export interface CanvasSaveActions {
  saveDocument(id: string, document: Workflow): Promise<ActionResult<{ savedAt: string }>>;
  saveVersion(id: string, document: Workflow, note: string): Promise<ActionResult<{ version: VersionItem; versions: VersionItem[] }>>;
  listVersions(id: string): Promise<ActionResult<{ versions: VersionItem[] }>>;
  restoreVersion(id: string, number: number): Promise<ActionResult<{ document: Workflow; versions: VersionItem[] }>>;
}

/** The run actions (app/actions/runs.ts), as the canvas calls them. */
export interface CanvasRunActions {
  startRun(workflowId: string, input: Record<string, unknown>): Promise<{ ok: true; runId: string } | { ok: false; error: string; field?: string }>;
  cancelRun(runId: string): Promise<unknown>;
}

/** A tool as a registry server lists it (app/actions/servers.ts listServerToolsAction). */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Why the tool cannot be offered to agents, when its definition is broken. */
  problem?: string;
}

/** The registry actions the canvas calls: listing a server's tools (which starts or reaches the server). */
export interface CanvasServerActions {
  listTools(id: string): Promise<ActionResult<{ tools: ListedTool[] }>>;
  /** Grants a registry server to this workflow; absent for people who may not grant. */
  grant?(workflowId: string, kind: "server", serverId: string): Promise<ActionResult>;
}
