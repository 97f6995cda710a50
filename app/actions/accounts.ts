"use server";

import { cookies, headers } from "next/headers";
import { accounts, checkSignIn, clientAddress, createFirstOwner, emailProblem, endSession, hashPassword, parseRole, passwordProblem, publicAction, requireRole, safeNext, servedOverHttps, sessionCookieName, setupOpenWithoutCode, startSession, trustedProxiesFromEnvironment, verifyPassword } from "@/lib/auth";
import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import type { ActionResult, FormState } from "@/components/servers/action-types";
import { DatabaseError, normalEmail } from "@/lib/db";
import { secretHash } from "@/lib/security";

/**
 * Accounts: the first owner's set-up, signing in and out, a person's own
 * password, and the owner's people list. Answers `{ ok, error, field }`;
 * passwords are never echoed back.
 */

/** Where to go after signing in: a path on this app only, never another site. */

async function setSessionCookie(userId: string): Promise<void> {
  const session = await startSession(userId);
  (await cookies()).set(sessionCookieName, session.value, { httpOnly: true, sameSite: "lax", secure: await servedOverHttps(), path: "/", expires: session.expiresAt });
}

export async function setupOwnerAction(_previous: FormState, form: FormData): Promise<FormState> {
  publicAction("the first owner's set-up: refused once an owner exists, and needs the log's one-time code unless only loopback names reach the app");
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  try {
    if (!setupOpenWithoutCode()) {
      const code = String(form.get("code") ?? "");
      if (!code || !(await accounts().useSetupCode(secretHash(code)))) {
        return { ok: false, error: "The set-up link is missing, used or expired. Restart the server to print a new one in its log." };
      }
    }
    const created = await createFirstOwner(accounts(), email, password);
    if (!created.ok) return created;
    await setSessionCookie(created.owner.id);
  } catch (error) {
    if (error instanceof DatabaseError) return { ok: false, error: error.message };
    throw error;
  }
  redirect("/");
}

export async function signInAction(_previous: FormState, form: FormData): Promise<FormState> {
  publicAction("signing in: the same message and work for an unknown email as for a wrong password; past 5 failures an email waits per address (doubling, at most a minute), and an address waits after 30 failures in 15 minutes");
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  if (email.trim() === "") return { ok: false, error: "Type your email address.", field: "email" };
  if (password === "") return { ok: false, error: "Type your password.", field: "password" };
  try {
    const checked = await checkSignIn(accounts(), email, password, { address: clientAddress((await headers()).get("x-forwarded-for"), trustedProxiesFromEnvironment()) });
    if (!checked.ok) return checked;
    await setSessionCookie(checked.user.id);
  } catch (error) {
    if (error instanceof DatabaseError) return { ok: false, error: error.message };
    throw error;
  }
  redirect(safeNext(form.get("next")));
}

export async function signOutAction(): Promise<void> {
  publicAction("signing out ends the caller's own session, whatever their role");
  const jar = await cookies();
  await endSession(jar.get(sessionCookieName)?.value);
  jar.delete(sessionCookieName);
  redirect("/sign-in");
}

/** A person's own password: needs the current one; every other session of theirs ends. */
export async function changePasswordAction(_previous: FormState, form: FormData): Promise<FormState> {
  const actor = await requireRole("viewer");
  const current = String(form.get("currentPassword") ?? "");
  const next = String(form.get("newPassword") ?? "");
  const problem = passwordProblem(next, actor.email);
  if (problem) return { ok: false, error: problem, field: "newPassword" };
  const found = await accounts().findForSignIn(actor.email);
  if (!found || !(await verifyPassword(current, found.passwordHash))) return { ok: false, error: "The current password is not right.", field: "currentPassword" };
  await accounts().setPassword(actor.id, await hashPassword(next));
  await setSessionCookie(actor.id);
  return { ok: true, message: "Password changed. Every other session of yours has been signed out." };
}

/** The owner adds a person with a role and a first password (told to them out of band). */
export async function createPersonAction(_previous: FormState, form: FormData): Promise<FormState> {
  const actor = await requireRole("owner");
  const email = String(form.get("email") ?? "");
  const role = parseRole(form.get("role"));
  const password = String(form.get("password") ?? "");
  const badEmail = emailProblem(email);
  if (badEmail) return { ok: false, error: badEmail, field: "email" };
  if (!role) return { ok: false, error: "Choose a role: owner, editor, runner or viewer.", field: "role" };
  const badPassword = passwordProblem(password, email);
  if (badPassword) return { ok: false, error: badPassword, field: "password" };
  const created = await accounts().createUser({ email, role, passwordHash: await hashPassword(password), createdBy: actor.email });
  if (!created) return { ok: false, error: `There is already an account for ${normalEmail(email)}.`, field: "email" };
  revalidatePath("/accounts");
  return { ok: true, message: `Added ${created.email} as ${role}. Give them the password; they can change it on their account page.` };
}

export async function changeRoleAction(userId: unknown, role: unknown): Promise<ActionResult> {
  const actor = await requireRole("owner");
  const parsed = parseRole(role);
  if (typeof userId !== "string" || !parsed) return { ok: false, error: "Choose a person and a role (owner, editor, runner or viewer)." };
  const person = await accounts().findUser(userId);
  if (!person) return { ok: false, error: "That person has no account any more." };
  if (person.role === "owner" && parsed !== "owner" && (await accounts().countOwners()) <= 1) {
    return { ok: false, error: `${person.email} is the only owner; make someone else owner first.` };
  }
  await accounts().setRole(userId, parsed);
  console.log(`accounts: ${actor.email} changed the role of ${person.email} from ${person.role} to ${parsed}`);
  revalidatePath("/accounts");
  return { ok: true };
}

export async function removePersonAction(userId: unknown): Promise<ActionResult> {
  const actor = await requireRole("owner");
  if (typeof userId !== "string") return { ok: false, error: "Which person? The id is missing." };
  const person = await accounts().findUser(userId);
  if (!person) return { ok: false, error: "That person has no account any more." };
  if (person.id === actor.id) return { ok: false, error: "You cannot remove your own account; another owner can." };
  if (person.role === "owner" && (await accounts().countOwners()) <= 1) return { ok: false, error: `${person.email} is the only owner.` };
  await accounts().deleteUser(userId);
  console.log(`accounts: ${actor.email} removed ${person.email} (their sessions and tokens with them)`);
  revalidatePath("/accounts");
  return { ok: true };
}
