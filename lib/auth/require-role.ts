// lib/auth/require-role.ts
/** Who may do what: owner > editor (build and run) > runner (run and approve) > viewer (read traces). */
export type Role = "owner" | "editor" | "runner" | "viewer";

/** The person behind a request. */
export interface Actor {
  id: string;
  email: string;
  role: Role;
}

/**
 * The signed-in person, when their role is at least `minimum`; otherwise the request is refused.
 * Placeholder until accounts land: the local owner.
 */
export async function requireRole(minimum: Role): Promise<Actor> {
  void minimum;
  return { id: "local-owner", email: "owner@localhost", role: "owner" };
}
