/** Who may do what, as an account row stores it: owner > editor (build and run) > runner (run and approve) > viewer (read traces). */
export type Role = "owner" | "editor" | "runner" | "viewer";

/** Every role, highest first. */
export const roles: readonly Role[] = ["owner", "editor", "runner", "viewer"];

/** A stored or submitted role, checked; null when it is none of the four. */
export function parseRole(value: unknown): Role | null {
  return typeof value === "string" && (roles as readonly string[]).includes(value) ? (value as Role) : null;
}
