import { randomUUID } from "node:crypto";
import { type PrismaClient, PrismaGrantStore, PrismaRunSink, PrismaServerRegistry, PrismaOAuthStateStore } from "../db";
import { parseWorkflow, serverDefaultFor, wiredServerSources, type Workflow, type WorkflowNode } from "../graph";
import { connectEntry, type EntryConnection, listedTool, protocolHints, readToolApp, type ToolAppOutcome } from "../mcp";
import { approvalGrantKey, wiredEdge } from "../engine";
import { ToolAppReads } from "./tool-app-reads";
import { decideApplied, policyFor } from "../policy";

/** Where a frame sits: the run, and the node run whose tool call (or call waiting for approval) it shows. */
export interface FrameOrigin {
  runId: string;
  nodeRunId: string;
  /** The registry server whose tool declared the UI: the frame may call this server's tools only. */
  server: string;
}

/** What a frame asked for. */
export interface FrameCallRequest extends FrameOrigin {
  tool: string;
  arguments: Record<string, unknown>;
  /** Who is looking at the frame: their email names them on the trace. */
  by: string;
  /** Their user id: a turn of another person's unshared chat thread is not theirs to call from. */
  viewerId?: string;
  /** The person confirmed a call its policy asks about (the host showed them the tool and its arguments). */
  approved?: boolean;
}

/** The MCP result given back to the frame (content, structuredContent, isError). */
export interface FrameToolResult {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export type FrameCallOutcome =
  | { status: "called"; result: FrameToolResult; rowId: string }
  | { status: "refused"; reason: string; rowId: string | null }
  | { status: "needs-approval"; reason: string };

const readTimeoutMs = 15_000;

// Kept on globalThis: Next may load this module once per server bundle (the frame's route, the server actions).
const holder = globalThis as typeof globalThis & { switchboardToolAppReads?: ToolAppReads };
const toolAppReads = (holder.switchboardToolAppReads ??= new ToolAppReads());

/**
 * The UI a tool of a registry server declares (MCP Apps), read now through
 * a session with that server as the host: null when the server is not in
 * the registry or the tool declares no UI, else the checked HTML or a
 * fallback to text with its reason. A server that cannot be reached is a
 * fallback too, never an error page. A UI read in the last minute from the
 * same entry is served again (ToolAppReads), after the same checks. A turn of another person's chat
 * thread that is not shared is null for them (`viewerId`), as the thread
 * is.
 */
export async function toolAppOf(prisma: PrismaClient, request: { runId: string; server: string; tool: string; viewerId?: string }): Promise<ToolAppOutcome | null> {
  const run = await prisma.run.findUnique({ where: { id: request.runId }, select: { id: true, attention: true, thread: { select: { ownerId: true, shared: true } } } });
  if (!run || hiddenFrom(run.thread, request.viewerId)) return null;
  // Only a tool this run called, or is waiting to call: a reader of traces cannot make the server connect to any registry server.
  const called = await prisma.toolCall.findFirst({ where: { runId: request.runId, server: request.server, tool: request.tool }, select: { id: true } });
  if (!called && !waitsToCall(run.attention, request)) return null;
  const resolved = await new PrismaServerRegistry(prisma).resolve(request.server).catch(() => null);
  if (!resolved) return null;
  return toolAppReads.read({ entry: resolved.entry, secretValues: resolved.secretValues, tool: request.tool }, async () => {
    let connection: EntryConnection | undefined;
    try {
      connection = await connectEntry(resolved.entry, { secretValues: resolved.secretValues, oauthStore: new PrismaOAuthStateStore(prisma) });
      return { outcome: await readToolApp(connection.client, request.tool, { timeoutMs: readTimeoutMs }), keep: true };
    } catch (error) {
      return { outcome: { kind: "text", uri: "", reason: `the server could not be asked for the tool's UI: ${(error as Error).message}` }, keep: false };
    } finally {
      await connection?.close().catch(() => undefined);
    }
  });
}

/**
 * A tool call a frame asks for, through what the agent's calls go through:
 * the frame's own server only; the tool offered to the agent whose call the
 * frame shows (its MCP server node or its `tools`), the workflow's grant of
 * the server, the registry's allowed tools and the tool's MCP Apps
 * visibility (`app`); then the approval policy where the tool is wired
 * (deny refuses; ask waits for the person at the frame to confirm). Every
 * outcome but "needs-approval" writes one trace row in the run, under the
 * agent's node run, caller `app:<node id>`: a refusal is a row with its
 * reason as the error. A run that has ended is no different: its frames
 * stay live, checked against today's grants, registry and policy, and the
 * row is added to its trace without touching its status or journal; a run
 * with no workflow refuses (no grant can be checked).
 */
export async function callToolFromFrame(prisma: PrismaClient, request: FrameCallRequest): Promise<FrameCallOutcome> {
  const context = await frameContext(prisma, request);
  if ("refused" in context) return context.refused === null ? { status: "refused", reason: context.reason, rowId: null } : refuse(prisma, request, context.refused, context.reason);
  const { node, workflow, grants, resolved } = context;
  const started = new Date();
  let connection: EntryConnection | undefined;
  try {
    connection = await connectEntry(resolved.entry, { secretValues: resolved.secretValues, oauthStore: new PrismaOAuthStateStore(prisma) });
    const listed = (await listedTool(connection.client, request.tool, { timeoutMs: readTimeoutMs })) as (Record<string, unknown> & { name: string; annotations?: Record<string, boolean | undefined>; _meta?: Record<string, unknown> }) | undefined;
    if (!listed) return refuse(prisma, request, node, `the server '${request.server}' lists no tool '${request.tool}'`);
    const visibility = (listed._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
    if (Array.isArray(visibility) && !visibility.includes("app")) return refuse(prisma, request, node, `the tool '${request.tool}' is not visible to apps (its _meta.ui.visibility is ${JSON.stringify(visibility)})`);
    const annotations = listed.annotations ?? {};
    const hints = protocolHints({ readOnly: annotations.readOnlyHint, destructive: annotations.destructiveHint, openWorld: annotations.openWorldHint });
    const edge = wiredEdge(workflow, node.id, request.server);
    const looseningApproved = [approvalGrantKey(request.server, request.tool), approvalGrantKey(request.server, "*")].some((grant) => grants.approvals?.has(grant) ?? false);
    const serverApproval = serverDefaultFor(resolved.entry.approval, request.tool);
    const applied = policyFor({ name: request.tool, server: request.server }, { node: node.approvals, edge: edge?.approval, server: serverApproval, looseningApproved }, edge?.id);
    // The frame's arguments are the app's, not the model's: no tainted context of the agent's enters the decision.
    const verdict = decideApplied(applied, { tool: request.tool, hints, tainted: [] });
    if (verdict.verdict === "deny") return refuse(prisma, request, node, `${verdict.setAt} denies it: ${verdict.reason}`);
    if (verdict.verdict === "ask" && !request.approved) return { status: "needs-approval", reason: `${verdict.setAt} asks a person: ${verdict.reason}` };
    if (verdict.verdict === "ask") await writeRow(prisma, { request, node, tool: "approval", server: "switchboard", args: { call: `${request.server}/${request.tool}`, from: "app", decision: "approve", by: request.by }, result: { approved: true }, error: null, started: new Date(), tainted: false });
    const timeoutMs = resolved.entry.toolTimeoutMs ?? 30_000;
    const result = (await connection.client.callTool({ name: request.tool, arguments: request.arguments }, AbortSignal.timeout(timeoutMs))) as FrameToolResult;
    const text = (result.content ?? []).map((block) => (block.type === "text" ? block.text : `[${block.type} content]`)).join("\n");
    const rowId = await writeRow(prisma, { request, node, tool: request.tool, server: request.server, args: request.arguments, result: result.isError ? null : (result.structuredContent ?? text), error: result.isError ? text : null, started, tainted: true });
    return { status: "called", result, rowId };
  } catch (error) {
    return refuse(prisma, request, node, `the call failed: ${(error as Error).message}`, started);
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

type FrameContext =
  | { node: WorkflowNode; workflow: Workflow; grants: Awaited<ReturnType<PrismaGrantStore["forRun"]>>; resolved: NonNullable<Awaited<ReturnType<PrismaServerRegistry["resolve"]>>> }
  | { refused: WorkflowNode | null; reason: string };

async function frameContext(prisma: PrismaClient, request: FrameCallRequest): Promise<FrameContext> {
  const nodeRun = await prisma.nodeRun.findFirst({ where: { id: request.nodeRunId, runId: request.runId }, select: { nodeId: true, run: { select: { document: true, workflowId: true, thread: { select: { ownerId: true, shared: true } } } } } });
  if (!nodeRun || hiddenFrom(nodeRun.run.thread, request.viewerId)) return { refused: null, reason: `run '${request.runId}' has no node run '${request.nodeRunId}'` };
  const parsed = parseWorkflow(JSON.parse(nodeRun.run.document));
  if (!parsed.ok) return { refused: null, reason: "the run's document is not a workflow" };
  const workflow = parsed.workflow;
  const node = workflow.nodes.find((candidate) => candidate.id === nodeRun.nodeId);
  if (!node) return { refused: null, reason: `the run's document has no node '${nodeRun.nodeId}'` };
  if (!offeredTo(workflow, node, request.server, request.tool)) return { refused: node, reason: `the tool '${request.tool}' of server '${request.server}' is not given to agent '${node.id}'` };
  // Whether the run has ended or not (docs/decisions.md, "A frame on a finished run"): every check is of now, and a run with no workflow has no grant to check.
  if (!nodeRun.run.workflowId) return { refused: node, reason: "the run has no workflow (it was deleted, or the run came from a file): no grant of the server can be checked" };
  const grants = await new PrismaGrantStore(prisma).forRun(nodeRun.run.workflowId);
  if (!grants.servers.has(request.server)) return { refused: node, reason: `MCP server '${request.server}' is not granted to this workflow` };
  const resolved = await new PrismaServerRegistry(prisma).resolve(request.server).catch(() => null);
  if (!resolved) return { refused: node, reason: `MCP server '${request.server}' is not in the registry` };
  if (!resolved.entry.enabled) return { refused: node, reason: `MCP server '${request.server}' is switched off in the registry` };
  if (resolved.entry.allowedTools && !resolved.entry.allowedTools.includes(request.tool)) return { refused: node, reason: `MCP server '${request.server}' does not allow the tool '${request.tool}' (its allowed tools are set on the Servers page)` };
  return { node, workflow, grants, resolved };
}

/** The agent was given the tool: an MCP server node wired to it, or its own `tools`, names the server and (when they list tools) the tool. */
function offeredTo(workflow: Workflow, node: WorkflowNode, server: string, tool: string): boolean {
  const own = (node.tools ?? []).filter((source) => source.type === "mcp");
  return [...own, ...wiredServerSources(workflow, node.id)].some((source) => source.type === "mcp" && source.serverId === server && (!source.toolNames || source.toolNames.includes(tool)));
}

async function refuse(prisma: PrismaClient, request: FrameCallRequest, node: WorkflowNode, reason: string, started = new Date()): Promise<FrameCallOutcome> {
  const message = `Refused a call from the app: ${reason}`;
  const rowId = await writeRow(prisma, { request, node, tool: request.tool, server: request.server, args: request.arguments, result: null, error: message, started, tainted: false });
  return { status: "refused", reason: message, rowId };
}

interface RowInput {
  request: FrameCallRequest;
  node: WorkflowNode;
  tool: string;
  server: string;
  args: unknown;
  result: unknown;
  error: string | null;
  started: Date;
  tainted: boolean;
}

/** One trace row in the run, numbered after the rows it holds (the run's sink numbers calls and taint records together). */
async function writeRow(prisma: PrismaClient, row: RowInput): Promise<string> {
  const id = randomUUID();
  const [calls, taints] = await Promise.all([
    prisma.toolCall.aggregate({ where: { runId: row.request.runId }, _max: { sequence: true } }),
    prisma.taintRecord.aggregate({ where: { runId: row.request.runId }, _max: { sequence: true } }),
  ]);
  const after = Math.max(calls._max.sequence ?? 0, taints._max.sequence ?? 0);
  await new PrismaRunSink(prisma, { sequenceAfter: after }).toolCall({
    id,
    runId: row.request.runId,
    nodeRunId: row.request.nodeRunId,
    tool: row.tool,
    server: row.server,
    caller: `app:${row.node.id}`,
    arguments: row.args ?? {},
    result: row.result,
    error: row.error,
    isError: row.error !== null,
    tainted: row.tainted,
    startedAt: row.started.toISOString(),
    durationMs: Date.now() - row.started.getTime(),
    inputTokens: null,
    outputTokens: null,
  });
  return id;
}

/** A chat turn's run is its thread's: another person's unshared thread is not shown (the chat routes answer 404 alike). */
function hiddenFrom(thread: { ownerId: string; shared: boolean } | null, viewerId: string | undefined): boolean {
  return viewerId !== undefined && thread !== null && thread.ownerId !== viewerId && !thread.shared;
}

/** Whether the run waits for a person about a call of this tool of this server (an approval or a question). */
function waitsToCall(attention: string | null, request: { server: string; tool: string }): boolean {
  if (!attention) return false;
  try {
    const waiting = JSON.parse(attention) as { tool?: unknown; server?: unknown };
    return waiting.tool === request.tool && waiting.server === request.server;
  } catch {
    return false;
  }
}
