"use server";

import { revalidatePath } from "next/cache";
import type { ActionResult, FormState } from "@/components/servers/action-types";
import { credentialStore } from "@/app/credentials/credential-store";
import { credentialRequirements } from "@/app/credentials/credential-requirements";
import { requireRole } from "@/lib/auth";
import { DatabaseError } from "@/lib/db";
import { SecretError } from "@/lib/security";

/**
 * Node credentials: write-only. Set fields of a credential a node type
 * declares (empty fields keep their stored value), or clear it. Answers
 * `{ ok, error, field }` and never a value.
 */

export async function saveCredentialAction(_previous: FormState, form: FormData): Promise<FormState> {
  await requireRole("owner");
  const nodeType = String(form.get("credentialNodeType") ?? "");
  const name = String(form.get("credentialName") ?? "");
  const found = (await credentialRequirements()).find((item) => item.nodeType === nodeType && item.requirement.name === name);
  if (!found) return { ok: false, error: `No node type '${nodeType}' declares a credential '${name}'.` };
  const values: Record<string, string> = {};
  for (const field of found.requirement.fields) {
    const value = form.get(`field.${field}`);
    if (typeof value === "string" && value !== "") values[field] = value;
  }
  const origins = String(form.get("origins") ?? "").split(/[\s,]+/).filter(Boolean);
  if (Object.keys(values).length === 0 && origins.length === 0) return { ok: false, error: "Type a value to store; empty fields keep what is stored.", field: `field.${found.requirement.fields[0]}` };
  try {
    await credentialStore().set(nodeType, name, values, origins);
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, error: error.message };
    if (error instanceof DatabaseError || error instanceof SecretError) return { ok: false, error: error.message };
    throw error;
  }
  revalidatePath("/credentials");
  return { ok: true, message: `Stored ${found.requirement.displayName} for ${found.nodeTitle}.` };
}

export async function clearCredentialAction(nodeType: unknown, name: unknown): Promise<ActionResult> {
  await requireRole("owner");
  if (typeof nodeType !== "string" || typeof name !== "string") return { ok: false, error: "Which credential? The node type or name is missing." };
  try {
    if (!(await credentialStore().clear(nodeType, name))) return { ok: false, error: "Nothing was stored for it." };
  } catch (error) {
    if (error instanceof DatabaseError) return { ok: false, error: error.message };
    throw error;
  }
  revalidatePath("/credentials");
  return { ok: true };
}
