import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { roleAtLeast, type Actor, type Role } from "./roles";
import { accounts, sessionCookieName, sessionUser } from "./sessions";

/** Who may do what: owner > editor (build and run) > runner (run and approve) > viewer (read traces). */
export type { Role } from "./roles";

/** The person behind a request. */
export type { Actor } from "./roles";

/** A request refused: not signed in (401) or a role below what it needs (403). The message says which. */
export class AccessRefused extends Error {
  override name = "AccessRefused";
  constructor(
    readonly code: "not-signed-in" | "role-too-low",
    readonly minimum: Role,
    message: string,
  ) {
    super(message);
  }
  get status(): 401 | 403 {
    return this.code === "not-signed-in" ? 401 : 403;
  }
}

/** The signed-in person of this request, or null. */
export async function currentActor(): Promise<Actor | null> {
  const user = await sessionUser((await cookies()).get(sessionCookieName)?.value);
  return user ? { id: user.id, email: user.email, role: user.role } : null;
}

/** Whether `actor` may do what needs `minimum` (for showing or hiding controls). */
export function may(actor: Actor | null, minimum: Role): boolean {
  return actor !== null && roleAtLeast(actor.role, minimum);
}

const article = (role: Role) => (role === "owner" || role === "editor" ? "an" : "a");

/** The refusal for `actor` at `minimum`, or null when allowed. */
export function refusalFor(actor: Actor | null, minimum: Role): AccessRefused | null {
  if (!actor) return new AccessRefused("not-signed-in", minimum, "You are not signed in (or your session has ended): sign in and try again.");
  if (roleAtLeast(actor.role, minimum)) return null;
  return new AccessRefused("role-too-low", minimum, `This needs ${article(minimum)} ${minimum} (or higher); ${actor.email} is ${article(actor.role)} ${actor.role}. Ask an owner to change your role.`);
}

/**
 * The signed-in person, when their role is at least `minimum`; otherwise
 * throws AccessRefused (401 not signed in, 403 role too low) with a message
 * that says what is needed. The first statement of every server action.
 *
 * @example const actor = await requireRole("runner");
 */
export async function requireRole(minimum: Role): Promise<Actor> {
  const actor = await currentActor();
  const refused = refusalFor(actor, minimum);
  if (refused) throw refused;
  return actor!;
}

/**
 * requireRole for pages: no session → the sign-in page (the set-up page
 * while there is no owner yet); a role too low → a page that says so.
 *
 * @example const actor = await requirePageRole("viewer", "/runs");
 */
export async function requirePageRole(minimum: Role, returnTo?: string): Promise<Actor> {
  const actor = await currentActor();
  const refused = refusalFor(actor, minimum);
  if (!refused) return actor!;
  if (refused.code === "not-signed-in" && (await accounts().countOwners()) === 0) redirect("/setup");
  if (refused.code === "not-signed-in") redirect(`/sign-in${returnTo ? `?next=${encodeURIComponent(returnTo)}` : ""}`);
  redirect(`/refused?need=${minimum}`);
}

/**
 * requireRole for route handlers: the person, or the refusal as a JSON
 * response (401/403) to return as it is.
 *
 * @example
 * const actor = await requireRouteRole("viewer");
 * if (actor instanceof Response) return actor;
 */
export async function requireRouteRole(minimum: Role): Promise<Actor | Response> {
  const actor = await currentActor();
  const refused = refusalFor(actor, minimum);
  return refused ? Response.json({ error: refused.message }, { status: refused.status, headers: { "Cache-Control": "no-store" } }) : actor!;
}

export { publicAction } from "./public-action";

/** Whether the request came over https (directly or through a proxy that says so): session cookies are then Secure. */
export async function servedOverHttps(): Promise<boolean> {
  const list = await headers();
  return (list.get("x-forwarded-proto") ?? "").split(",")[0].trim() === "https";
}
