"use server";

import { requireRole } from "@/lib/auth";
import { prisma } from "@/lib/db/app";
import { callToolFromFrame, toolAppOf } from "@/lib/runs";
import type { AppCallAnswer, ToolAppAnswer } from "@/components/mcp-app/app-types";

const maxNameLength = 200;
const maxArgumentsBytes = 64 * 1024;

/**
 * The UI a call's tool declares (MCP Apps), for the trace row, the
 * approval form and the chat bubble: read from the tool's registry server
 * as the host, checked (MCP App HTML, 2 MiB), else the reason it falls back
 * to text. An app is framed from its own route (app/app-frame), which
 * serves the HTML with the policy its resource declares. Anyone who may
 * read traces may see it, but not on a turn of another person's unshared
 * chat thread.
 */
export async function loadToolApp(request: { runId: string; server: string; tool: string }): Promise<ToolAppAnswer> {
  const actor = await requireRole("viewer");
  const problem = namesProblem(request, ["runId", "server", "tool"]);
  if (problem) return { kind: "error", error: problem };
  try {
    const outcome = await toolAppOf(prisma(), { runId: request.runId, server: request.server, tool: request.tool, viewerId: actor.id });
    if (outcome === null) return { kind: "none" };
    if (outcome.kind === "text") return { kind: "text", uri: outcome.uri, reason: outcome.reason };
    const src = `/app-frame/${encodeURIComponent(request.runId)}?${new URLSearchParams({ server: request.server, tool: request.tool })}`;
    return { kind: "app", uri: outcome.uri, src, prefersBorder: outcome.prefersBorder };
  } catch (error) {
    console.error("The tool's UI could not be read:", error);
    return { kind: "error", error: "The tool's UI could not be read because of an error on our side; the server log has the details." };
  }
}

/**
 * A tool call an MCP App's frame asks for (tools/call over the frame's
 * postMessage channel): a runner's, since it runs a tool. It goes through
 * the agent's grants and approval policy and writes a trace row
 * (lib/runs/tool-apps.ts); a call its policy asks about comes back as
 * "needs-approval" until the person confirms it (`approved`).
 */
export async function callToolFromApp(request: { runId: string; nodeRunId: string; server: string; tool: string; arguments?: unknown; approved?: boolean }): Promise<AppCallAnswer> {
  const actor = await requireRole("runner");
  const problem = namesProblem(request, ["runId", "nodeRunId", "server", "tool"]);
  if (problem) return { status: "refused", reason: problem };
  const args = request.arguments ?? {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) return { status: "refused", reason: "arguments: must be an object of the tool's arguments" };
  if (JSON.stringify(args).length > maxArgumentsBytes) return { status: "refused", reason: `arguments: longer than ${maxArgumentsBytes / 1024} KiB of JSON` };
  try {
    const outcome = await callToolFromFrame(prisma(), { runId: request.runId, nodeRunId: request.nodeRunId, server: request.server, tool: request.tool, arguments: args as Record<string, unknown>, by: actor.email, viewerId: actor.id, approved: request.approved === true });
    return outcome.status === "called" ? { status: "called", result: outcome.result } : outcome.status === "refused" ? { status: "refused", reason: outcome.reason } : outcome;
  } catch (error) {
    console.error("A call from an app could not be made:", error);
    return { status: "refused", reason: "The call could not be made because of an error on our side; the server log has the details." };
  }
}

function namesProblem(request: Record<string, unknown>, fields: string[]): string | null {
  if (typeof request !== "object" || request === null) return "The request is not an object.";
  for (const field of fields) {
    const value = request[field];
    if (typeof value !== "string" || value === "") return `${field}: required`;
    if (value.length > maxNameLength) return `${field}: longer than ${maxNameLength} characters`;
  }
  return null;
}
