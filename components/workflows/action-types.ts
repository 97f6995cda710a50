import type { GraphProblem, Workflow } from "@/lib/graph";
import type { OriginChange } from "@/lib/manifest/browser";
import type { ApprovalLoosening } from "@/lib/policy";
import type { CaseOutcome, VersionTests } from "@/lib/runs";
import type { ToolAppActions } from "@/components/mcp-app/app-actions";

export type { OriginChange };

/**
 * What the workflows' server actions answer (app/actions/workflows.ts).
 * Declared here, beside the components that read them, so components take
 * the actions as props and never import app/.
 */
export type ActionFailure = { ok: false; error: string; field?: string };
export type ActionResult<T extends object = object> = ({ ok: true } & T) | ActionFailure;

/**
 * What an import, a save or a restore says about credential origins
 * (app/workflows/[id]/grants/origin-review.ts): the origins it made a
 * credentialed call reach that no one approved for that credential in this
 * workflow, and all that still wait for an owner.
 */
export interface OriginReview {
  /** Made by this import or save: newly reached, not approved. Empty when nothing changed. */
  originChanges: OriginChange[];
  /** Every such origin in the saved document, new or not. */
  pendingOrigins: OriginChange[];
  /**
   * Where the document's approval policy would loosen a registry server's
   * default ("allow" where the server says "ask"), not approved for this
   * workflow: the server's default holds until an owner approves it on the
   * Grants page.
   */
  approvalLoosenings?: ApprovalLooseningItem[];
}

/** One loosening request as pages show it. */
export type ApprovalLooseningItem = ApprovalLoosening;

/** The owner's approval of one loosening for this workflow (app/actions/grants.ts approveLooseningAction). */
export type ApproveLoosening = (workflowId: string, server: string, tool: string) => Promise<ActionResult>;

export type ImportResult = ActionResult<{ id: string; name: string } & OriginReview> | (ActionFailure & { problems: GraphProblem[] });

/** One saved version as the canvas lists it (dates as ISO text: they cross to the browser). */
export interface VersionItem {
  number: number;
  note: string;
  createdAt: string;
  /** The workflow's test cases against this version, once saved: absent when it has none. */
  tests?: VersionTests | null;
}

/** The actions the workflows list calls. */
export interface WorkflowListActions {
  create(name: string): Promise<ActionResult<{ id: string }>>;
  rename(id: string, name: string): Promise<ActionResult<{ name: string }>>;
  duplicate(id: string): Promise<ActionResult<{ id: string; name: string }>>;
  remove(id: string): Promise<ActionResult>;
  importJson(text: string): Promise<ImportResult>;
  /** Present for owners: approving an origin an import sends a credential to. */
  approveOrigin?: ApproveOrigin;
  /** Present for owners: approving an approval default an import's document loosens. */
  approveLoosening?: ApproveLoosening;
}

/** The actions the canvas calls to save its document and versions. */
export interface CanvasSaveActions {
  saveDocument(id: string, document: Workflow): Promise<ActionResult<{ savedAt: string } & OriginReview>>;
  saveVersion(id: string, document: Workflow, note: string): Promise<ActionResult<{ version: VersionItem; versions: VersionItem[] }>>;
  listVersions(id: string): Promise<ActionResult<{ versions: VersionItem[] }>>;
  restoreVersion(id: string, number: number): Promise<ActionResult<{ document: Workflow; versions: VersionItem[] } & OriginReview>>;
  /** Runs the test cases again against a saved version whose test was interrupted. */
  retestVersion?(id: string, number: number): Promise<ActionResult<{ versions: VersionItem[] }>>;
}

/** The owner's approval of one origin for a credential in this workflow (app/actions/grants.ts approveOriginAction). */
export type ApproveOrigin = (workflowId: string, nodeType: string, credential: string, origin: string) => Promise<ActionResult>;

/** The run actions (app/actions/runs.ts), as the canvas calls them. */
export interface CanvasRunActions {
  startRun(workflowId: string, input: Record<string, unknown>): Promise<{ ok: true; runId: string } | { ok: false; error: string; field?: string }>;
  cancelRun(runId: string): Promise<unknown>;
  /** The Test button: the workflow's cases against the document on the canvas (app/actions/test-cases.ts). */
  testDocument?(workflowId: string, document: Workflow): Promise<TestOutcomes>;
  /** The playground's Approve and Deny on a held call (app/actions/approvals.ts decideApproval). */
  decideApproval?(callId: string, decision: { action: "approve" } | { action: "deny"; reason: string }): Promise<{ ok: boolean; error?: string; message?: string }>;
  /** The playground's MCP Apps: a called tool's UI in the bubble and the frame's calls (app/actions/tool-apps.ts). */
  toolApps?: ToolAppActions;
}

/** What the Test button answers: each case's outcome, or why none ran. */
export type TestOutcomes =
  | { ok: true; outcomes: CaseOutcome[]; passed: number; failed: number; problems: string[] }
  | { ok: false; error: string; field?: "workflowId" | "document"; noCases?: boolean };

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

/** A webhook URL and secret, shown once, with the headers and body of a signed example delivery (app/actions/triggers.ts issueWebhookAction). */
export type IssuedWebhookView =
  | { ok: true; path: string; secret: string; preset: string; exampleHeaders: Record<string, string>; exampleBody: string }
  | { ok: false; error: string };

/** The trigger actions, as the canvas calls them (editors only). */
export interface CanvasTriggerActions {
  issueWebhook(workflowId: string): Promise<IssuedWebhookView>;
}
