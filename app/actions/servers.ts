"use server";

import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ActionFailure, ActionResult, FormState, ToolItem } from "@/components/servers/action-types";
import { serverRegistry } from "@/app/servers/server-registry";
import { toolIndex } from "@/app/servers/tool-index";
import { oauthStateCookie, oauthStore } from "@/app/servers/oauth/oauth-connection";
import { requireRole } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { appOrigin, EntryConnectionError, entryFingerprint, entryFromForm, listEntryTools, parseServerApprovalForm, RegistrySecretError, ServerEntryError, serverPolicyFromEnvironment, startConnect, testEntryConnection } from "@/lib/mcp";
import { guardedWebFetch, SecretError } from "@/lib/security";

/**
 * The MCP servers' server actions: parse the input, call the registry,
 * answer `{ ok: true, ... }` or `{ ok: false, error, field? }` — never a
 * throw the page cannot show, and never a secret value.
 */

const serverIdInput = z.string().trim().min(1, "Which server? The id is missing.").max(64);

/**
 * Register a server (mode=create) or replace one (mode=edit); on success, back to the list.
 * Owner only: a stdio entry starts a program on this machine, and any entry decides where agents' tool calls go.
 */
export async function saveServerAction(_previous: FormState, form: FormData): Promise<FormState> {
  await requireRole("owner");
  const parsed = entryFromForm(form);
  if (!parsed.ok) return { ok: false, error: parsed.problem.message, field: parsed.problem.field };
  const mode = form.get("mode") === "edit" ? "edit" : "create";
  const id = String(parsed.input.id ?? "");
  const saved = await guard(async (): Promise<ActionResult> => {
    const registry = serverRegistry();
    const existing = id ? await registry.describe(id) : null;
    // A refused row may be replaced by registering it again; a working one is edited, not overwritten.
    if (mode === "create" && existing?.ok) return { ok: false, error: `A server with the id '${id}' exists; choose another id, or edit that server.`, field: "id" };
    if (mode === "edit" && !existing) return { ok: false, error: `There is no server '${id}' any more; it may have been deleted.`, field: "id" };
    // The entry form does not carry the approval defaults (their own form on the server's page sets them): an edit keeps them.
    const approval = existing?.ok ? existing.entry.approval : undefined;
    const entry = await registry.save(approval === undefined ? parsed.input : { ...parsed.input, approval }, { secretValues: parsed.secretValues });
    // Its tools may have changed with its entry: listed again now, so the canvas page is sent with them.
    toolIndex().forget(entry.id);
    if (entry.enabled) void toolIndex().refresh({ id: entry.id, fingerprint: entryFingerprint(entry) });
    return { ok: true };
  });
  if (!saved.ok) return saved;
  revalidatePath("/servers");
  redirect(`/servers?saved=${encodeURIComponent(id)}`);
}

export async function deleteServerAction(id: unknown): Promise<ActionResult> {
  await requireRole("owner");
  const parsed = serverIdInput.safeParse(id);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(async (): Promise<ActionResult> => {
    if (!(await serverRegistry().delete(parsed.data))) return { ok: false, error: `There is no server '${parsed.data}'; it may have been deleted already.` };
    toolIndex().forget(parsed.data);
    revalidatePath("/servers");
    return { ok: true };
  });
}

/**
 * The server's default approval policies (its page's Approval defaults
 * form): for every tool and per tool, applied where a workflow wires the
 * server and the edge sets no policy of its own. An owner or an editor:
 * it decides what agents may do with the server's tools, not where the
 * server is. Bad input is refused with its field named; nothing changes.
 */
export async function saveServerApprovalAction(id: unknown, form: unknown): Promise<ActionResult<{ message: string }>> {
  const actor = await requireRole("editor");
  const parsedId = serverIdInput.safeParse(id);
  if (!parsedId.success) return { ok: false, error: parsedId.error.issues[0].message };
  const fields = z.object({ policy: z.string().max(10_000).default(""), tools: z.string().max(100_000).default("") }).safeParse(form ?? {});
  if (!fields.success) return { ok: false, error: "The approval form is not readable: send its policy and tools as text.", field: "policy" };
  const parsed = parseServerApprovalForm(fields.data);
  if (!parsed.ok) return { ok: false, error: parsed.message, field: parsed.field };
  return guard(async (): Promise<ActionResult<{ message: string }>> => {
    if (!(await serverRegistry().setApproval(parsedId.data, parsed.approval))) return { ok: false, error: `There is no server '${parsedId.data}'; it may have been deleted.` };
    console.info(`server ${parsedId.data}: approval defaults set by ${actor.email}`);
    revalidatePath(`/servers/${encodeURIComponent(parsedId.data)}`);
    return { ok: true, message: parsed.approval ? "Saved: these defaults apply to workflows that wire this server without a policy of their own." : "Saved: this server has no approval defaults; the workflow default applies." };
  });
}

/** "Test connection": connect, list the tools, close; the failure in words. */
export async function testServerAction(id: unknown): Promise<ActionResult<{ message: string }>> {
  await requireRole("owner");
  const parsed = serverIdInput.safeParse(id);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(async (): Promise<ActionResult<{ message: string }>> => {
    const resolved = await serverRegistry().resolve(parsed.data);
    if (!resolved) return { ok: false, error: `There is no server '${parsed.data}'.` };
    const report = await testEntryConnection(resolved.entry, { secretValues: resolved.secretValues, oauthStore: oauthStore() });
    if (!report.ok) return { ok: false, error: `Connection failed: ${report.error}` };
    const server = report.serverName ? ` to ${report.serverName}${report.serverVersion ? ` ${report.serverVersion}` : ""}` : "";
    const revision = report.protocolVersion ? ` (MCP ${report.protocolVersion})` : "";
    return { ok: true, message: `Connected${server}${revision}: ${report.toolCount} tool${report.toolCount === 1 ? "" : "s"} in ${report.durationMs} ms.` };
  });
}

export async function listServerToolsAction(id: unknown): Promise<ActionResult<{ tools: ToolItem[] }>> {
  await requireRole("editor");
  const parsed = serverIdInput.safeParse(id);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(async (): Promise<ActionResult<{ tools: ToolItem[] }>> => {
    const resolved = await serverRegistry().resolve(parsed.data);
    if (!resolved) return { ok: false, error: `There is no server '${parsed.data}'.` };
    const tools = await listEntryTools(resolved.entry, { secretValues: resolved.secretValues, oauthStore: oauthStore() });
    // What was just listed is the freshest the palette's index can have.
    toolIndex().record(
      { id: resolved.entry.id, fingerprint: entryFingerprint(resolved.entry) },
      tools.filter((tool) => !tool.problem).map((tool) => tool.name),
    );
    return { ok: true, tools };
  });
}

/**
 * "Connect" / "Reconnect" of an OAuth server: discovers its authorization
 * server, registers Switchboard where needed and answers the consent page's
 * URL for the browser to open; the `state` is bound to the person by an
 * HttpOnly cookie the callback checks. Client credentials connect at once.
 */
export async function connectServerAction(id: unknown): Promise<ActionResult<{ authorizationUrl?: string; message?: string }>> {
  const actor = await requireRole("owner");
  const parsed = serverIdInput.safeParse(id);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  const origin = appOrigin();
  if (!origin) return { ok: false, error: "The app cannot tell its own address for the OAuth callback: set SWITCHBOARD_PUBLIC_URL." };
  return guard(async (): Promise<ActionResult<{ authorizationUrl?: string; message?: string }>> => {
    const resolved = await serverRegistry().resolve(parsed.data);
    if (!resolved) return { ok: false, error: `There is no server '${parsed.data}'.` };
    const policy = serverPolicyFromEnvironment();
    const started = await startConnect(resolved.entry, resolved.secretValues, {
      store: oauthStore(actor.email),
      origin,
      fetch: guardedWebFetch({ allowedOrigins: policy.allowedPrivateOrigins }),
    });
    if (started.kind === "connected") {
      revalidatePath("/servers");
      return { ok: true, message: `${resolved.entry.name} is connected.` };
    }
    (await cookies()).set(oauthStateCookie, `${resolved.entry.id}.${started.state}`, {
      httpOnly: true,
      sameSite: "lax",
      secure: origin.startsWith("https://"),
      path: "/servers/oauth",
      maxAge: 600,
    });
    return { ok: true, authorizationUrl: started.authorizationUrl.toString() };
  });
}

/** "Disconnect": forgets the server's tokens and registered client. */
export async function disconnectServerAction(id: unknown): Promise<ActionResult> {
  await requireRole("owner");
  const parsed = serverIdInput.safeParse(id);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(async (): Promise<ActionResult> => {
    await oauthStore().forget(parsed.data);
    revalidatePath("/servers");
    return { ok: true };
  });
}

/** Expected failures become `{ ok: false, error, field }`; anything else is a bug and is thrown. */
async function guard<R>(work: () => Promise<R>): Promise<R | ActionFailure> {
  try {
    return await work();
  } catch (error) {
    const failure = expectedFailure(error);
    if (failure) return failure;
    throw error;
  }
}

function expectedFailure(error: unknown): ActionFailure | null {
  if (error instanceof ServerEntryError) return { ok: false, error: error.context.stored ? error.message : error.problem.message, field: error.field };
  if (error instanceof EntryConnectionError) return { ok: false, error: `Connection failed: ${error.message}` };
  if (error instanceof RegistrySecretError || error instanceof SecretError || error instanceof DatabaseError) return { ok: false, error: error.message };
  if (error instanceof Error && (error.name === "OAuthFlowError" || error.name === "AuthorizationCallbackError")) return { ok: false, error: `Connecting failed: ${error.message}` };
  return null;
}
