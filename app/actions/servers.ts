"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ActionFailure, ActionResult, FormState, ToolItem } from "@/components/servers/action-types";
import { serverRegistry } from "@/app/servers/server-registry";
import { requireRole } from "@/lib/auth/require-role";
import { DatabaseError } from "@/lib/db";
import { EntryConnectionError, listEntryTools, testEntryConnection } from "@/lib/mcp/connect-entry";
import { entryFromForm, RegistrySecretError, ServerEntryError } from "@/lib/mcp/registry";
import { SecretError } from "@/lib/security/secrets";

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
    await registry.save(parsed.input, { secretValues: parsed.secretValues });
    return { ok: true };
  });
  if (!saved.ok) return saved;
  revalidatePath("/servers");
  redirect(`/servers?saved=${encodeURIComponent(id)}`);
}

export async function deleteServerAction(id: unknown): Promise<ActionResult> {
  // Authorization: Switchboard has no accounts yet; when it does, check here that the caller may manage servers.
  const parsed = serverIdInput.safeParse(id);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(async (): Promise<ActionResult> => {
    if (!(await serverRegistry().delete(parsed.data))) return { ok: false, error: `There is no server '${parsed.data}'; it may have been deleted already.` };
    revalidatePath("/servers");
    return { ok: true };
  });
}

/** "Test connection": connect, list the tools, close; the failure in words. */
export async function testServerAction(id: unknown): Promise<ActionResult<{ message: string }>> {
  // Authorization: Switchboard has no accounts yet; when it does, check here that the caller may use this server.
  const parsed = serverIdInput.safeParse(id);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(async (): Promise<ActionResult<{ message: string }>> => {
    const resolved = await serverRegistry().resolve(parsed.data);
    if (!resolved) return { ok: false, error: `There is no server '${parsed.data}'.` };
    const report = await testEntryConnection(resolved.entry, { secretValues: resolved.secretValues });
    if (!report.ok) return { ok: false, error: `Connection failed: ${report.error}` };
    const server = report.serverName ? ` to ${report.serverName}${report.serverVersion ? ` ${report.serverVersion}` : ""}` : "";
    const revision = report.protocolVersion ? ` (MCP ${report.protocolVersion})` : "";
    return { ok: true, message: `Connected${server}${revision}: ${report.toolCount} tool${report.toolCount === 1 ? "" : "s"} in ${report.durationMs} ms.` };
  });
}

export async function listServerToolsAction(id: unknown): Promise<ActionResult<{ tools: ToolItem[] }>> {
  // Authorization: Switchboard has no accounts yet; when it does, check here that the caller may use this server.
  const parsed = serverIdInput.safeParse(id);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(async (): Promise<ActionResult<{ tools: ToolItem[] }>> => {
    const resolved = await serverRegistry().resolve(parsed.data);
    if (!resolved) return { ok: false, error: `There is no server '${parsed.data}'.` };
    return { ok: true, tools: await listEntryTools(resolved.entry, { secretValues: resolved.secretValues }) };
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
  return null;
}
