"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ActionResult } from "@/components/servers/action-types";
import { credentialRequirements } from "@/app/credentials/credential-requirements";
import { serverRegistry } from "@/app/servers/server-registry";
import { grantStore } from "@/app/workflows/[id]/grants/grant-store";
import { requireRole } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { getWorkflow } from "@/lib/db/app";
import { approvalGrantKey, credentialGrantKey } from "@/lib/engine";

/**
 * Grants of one workflow: which registry servers and stored credentials it
 * may use (editors and owners), and which extra origins a credential may go
 * to from it and which server approval defaults its document may loosen
 * (owners only). Answers `{ ok }` or `{ ok: false, error }`.
 */

const grantInput = z.object({
  workflowId: z.string().min(1, "Which workflow? The id is missing.").max(200),
  kind: z.enum(["server", "credential"], { error: "A grant is of a server or of a credential." }),
  resource: z.string().min(1, "What to grant? The id is missing.").max(300),
});

export async function grantAction(workflowId: unknown, kind: unknown, resource: unknown): Promise<ActionResult> {
  const actor = await requireRole("editor");
  const parsed = grantInput.safeParse({ workflowId, kind, resource });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(parsed.data.workflowId, async () => {
    const known = await knownResource(parsed.data.kind, parsed.data.resource);
    if (known) return { ok: false, error: known };
    await grantStore().grant(parsed.data.workflowId, parsed.data.kind, parsed.data.resource, actor.email);
    return { ok: true };
  });
}

/** Revoking only ever makes a workflow stricter: an editor may revoke an owner's approval of a loosening or of an environment credential too. */
const revokeInput = grantInput.extend({ kind: z.enum(["server", "credential", "approval", "environment"], { error: "A grant is of a server, a credential, an approval loosening or an environment credential." }) });

export async function revokeGrantAction(workflowId: unknown, kind: unknown, resource: unknown): Promise<ActionResult> {
  await requireRole("editor");
  const parsed = revokeInput.safeParse({ workflowId, kind, resource });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return guard(parsed.data.workflowId, async () =>
    (await grantStore().revoke(parsed.data.workflowId, parsed.data.kind, parsed.data.resource)) ? { ok: true } : { ok: false, error: "It was not granted to this workflow." },
  );
}

const originInput = z.object({
  workflowId: z.string().min(1).max(200),
  nodeType: z.string().min(1).max(100),
  name: z.string().min(1).max(100),
  origin: z.string().min(1, "Which origin?").max(300),
});

/** The owner lets this workflow send a credential to one more origin (and grants the credential). */
export async function approveOriginAction(workflowId: unknown, nodeType: unknown, name: unknown, origin: unknown): Promise<ActionResult> {
  const actor = await requireRole("owner");
  const parsed = originInput.safeParse({ workflowId, nodeType, name, origin });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  const { nodeType: type, name: credential } = parsed.data;
  return guard(parsed.data.workflowId, async () => {
    const known = await knownResource("credential", `${type}/${credential}`);
    if (known) return { ok: false, error: known };
    try {
      await grantStore().approveOrigin(parsed.data.workflowId, type, credential, parsed.data.origin, actor.email);
    } catch (error) {
      if (error instanceof RangeError) return { ok: false, error: error.message };
      throw error;
    }
    return { ok: true };
  });
}

const looseningInput = z.object({
  workflowId: z.string().min(1, "Which workflow? The id is missing.").max(200),
  server: z.string().min(1, "Which server? The id is missing.").max(200),
  tool: z.string().min(1, "Which tool? Name it, or * for every tool.").max(200),
});

/**
 * The owner lets this workflow's document loosen a server's approval
 * default for one tool (or `*`, the server-wide one): until then the
 * server's default is a floor the document cannot go below.
 */
export async function approveLooseningAction(workflowId: unknown, server: unknown, tool: unknown): Promise<ActionResult> {
  const actor = await requireRole("owner");
  const parsed = looseningInput.safeParse({ workflowId, server, tool });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  return ownerGrant(actor.email, parsed.data.workflowId, { kind: "approval", resource: approvalGrantKey(parsed.data.server, parsed.data.tool), known: () => knownResource("server", parsed.data.server) });
}

const environmentInput = z.object({
  workflowId: z.string().min(1, "Which workflow? The id is missing.").max(200),
  nodeType: z.string().min(1, "Which node type?").max(100),
  name: z.string().min(1, "Which credential?").max(100),
});

/**
 * The owner lets a node type that is not first-party take, in this
 * workflow, a credential set in the server's environment
 * (SWITCHBOARD_CREDENTIAL_<NAME>_*). First-party node types that declare it
 * need no such approval.
 */
export async function allowEnvironmentCredentialAction(workflowId: unknown, nodeType: unknown, name: unknown): Promise<ActionResult> {
  const actor = await requireRole("owner");
  const parsed = environmentInput.safeParse({ workflowId, nodeType, name });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  const resource = credentialGrantKey(parsed.data.nodeType, parsed.data.name);
  return ownerGrant(actor.email, parsed.data.workflowId, { kind: "environment", resource, known: () => knownResource("credential", resource) });
}

/** Records an owner's grant once the workflow exists and `known` finds nothing wrong with what is granted. */
async function ownerGrant(email: string, workflowId: string, grant: { kind: "approval" | "environment"; resource: string; known: () => Promise<string | null> }): Promise<ActionResult> {
  return guard(workflowId, async () => {
    const problem = await grant.known();
    if (problem) return { ok: false, error: problem };
    await grantStore().grant(workflowId, grant.kind, grant.resource, email);
    return { ok: true };
  });
}

/** Why the resource cannot be granted (not in the registry, not a declared credential), or null. */
async function knownResource(kind: "server" | "credential", resource: string): Promise<string | null> {
  if (kind === "server") return (await serverRegistry().describe(resource)) ? null : `There is no MCP server '${resource}' in the registry.`;
  const declared = (await credentialRequirements()).some((item) => `${item.nodeType}/${item.requirement.name}` === resource);
  return declared ? null : `No node type declares the credential '${resource}'.`;
}

async function guard(workflowId: string, work: () => Promise<ActionResult>): Promise<ActionResult> {
  try {
    if (!(await getWorkflow(workflowId))) return { ok: false, error: `There is no workflow "${workflowId}"; it may have been deleted.` };
    const result = await work();
    if (result.ok) {
      revalidatePath(`/workflows/${workflowId}`);
      revalidatePath(`/workflows/${workflowId}/grants`);
    }
    return result;
  } catch (error) {
    if (error instanceof DatabaseError) return { ok: false, error: error.message };
    throw error;
  }
}
