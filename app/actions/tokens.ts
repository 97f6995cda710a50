"use server";

import { revalidatePath } from "next/cache";
import type { ActionResult } from "@/components/servers/action-types";
import { accounts, requireRole } from "@/lib/auth";
import { newSecret, secretHash } from "@/lib/security";

/** MCP endpoint tokens are this long-lived bearer: `sbt_` + 256 random bits. */
const tokenPrefix = "sbt_";

/**
 * Creates an MCP endpoint token for the caller, carrying their role. The
 * token is in this answer only: the database keeps its SHA-256.
 */
export async function createTokenAction(name: unknown): Promise<ActionResult<{ token: string; id: string }>> {
  const actor = await requireRole("viewer");
  const label = typeof name === "string" ? name.trim() : "";
  if (label === "") return { ok: false, error: "Name the token after the host that will use it, e.g. “Claude Desktop on my laptop”.", field: "name" };
  if (label.length > 80) return { ok: false, error: "Keep the name under 80 characters.", field: "name" };
  const token = newSecret(tokenPrefix);
  const created = await accounts().createApiToken({ userId: actor.id, name: label, tokenHash: secretHash(token), prefix: token.slice(0, tokenPrefix.length + 6) });
  revalidatePath("/tokens");
  return { ok: true, token, id: created.id };
}

/** Revokes a token: the caller's own, or anyone's for an owner. The endpoint refuses it at once. */
export async function revokeTokenAction(id: unknown): Promise<ActionResult> {
  const actor = await requireRole("viewer");
  if (typeof id !== "string" || id === "") return { ok: false, error: "Which token? The id is missing." };
  const token = await accounts().findApiToken(id);
  // Another person's token reads as missing to a non-owner: its existence is not theirs to learn.
  if (!token || (token.userId !== actor.id && actor.role !== "owner")) return { ok: false, error: "There is no such token; it may have been removed." };
  if (token.revokedAt) return { ok: false, error: `“${token.name}” is revoked already.` };
  await accounts().revokeApiToken(id);
  console.log(`tokens: ${actor.email} revoked the MCP token “${token.name}” (${token.prefix}…) of ${token.userEmail}`);
  revalidatePath("/tokens");
  return { ok: true };
}
